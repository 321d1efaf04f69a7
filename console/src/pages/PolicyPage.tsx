import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  CreatePolicyDocument,
  CreatePolicyDraftFromVersionDocument,
  DeletePolicyDocument,
  PolicyDocument,
  PublishPolicyDocument,
  ReplayPolicyDocument,
  RollbackPolicyDocument,
  RunPolicyVersionBatchDocument,
  RunPolicyVersionDocument,
  RunRuleDocument,
  UpdatePolicyDraftDocument,
} from '@verdict/client';
import type { PolicyFieldsFragment, PolicyTestInput, RunResultFieldsFragment, UpdatePolicyDraftInput } from '@verdict/client';
import type { EditorView } from '@codemirror/view';
import { errorMessage } from '../api';
import { dropDraft, loadDraft, loadSample, storeDraft, storeSample } from '../drafts';
import { formatJSON, sameJSON } from '../format';
import { navigate, useTab } from '../router';
import { usePolicyRecords } from '../records';
import { useDraftRevision } from '../revision';
import { NameField } from '../components/NameField';
import { FieldError, invalidField, refusedField } from '../components/FieldError';
import { RestoredNotice } from '../components/RestoredNotice';
import { versionCount } from '../versions';
import { recordRights, useSession } from '../session';
import { carryNotice, refusalNotice, useAction } from '../action';
import { sampleName, testsOf } from '../tests';
import { CodeMirror } from '../editor/CodeMirror';
import { jsonEditorState, jsonProblem } from '../editor/jsonEditor';
import { mergeNames, namesOfSample, namesOfSchema, recheck, ruleEditorState } from '../editor/ruleEditor';
import type { DataNames, RuleDiagnostic } from '../editor/ruleEditor';
import { RunResultView } from '../components/RunResult';
import { BatchResultView } from '../components/BatchResult';
import { DecisionsPanel } from '../components/DecisionsPanel';
import { DeleteDialog } from '../components/DeleteDialog';
import { LoadFailure } from '../components/LoadFailure';
import { NOTICE_ID, NotThisRecord, RecordHeader } from '../components/RecordHeader';
import { PublishDialog } from '../components/PublishDialog';
import type { PublishProblem } from '../components/PublishDialog';
import { TestSummary } from '../components/TestSummary';
import { TestsTable } from '../components/TestsTable';
import { VersionsPanel } from '../components/VersionsPanel';
import { checkRule, testPolicy } from '../checks';
import { batchProblem, isJSONObject } from '../runData';
import { schemaOf, schemaText } from '../schema';
import type { TestReport } from '../checks';

type Record_ = PolicyFieldsFragment;
type Tab = 'editor' | 'tests' | 'schema' | 'versions' | 'decisions';
const tabs: Tab[] = ['editor', 'tests', 'schema', 'versions', 'decisions'];

const NEW_SAMPLE = '{\n  "Person": {\n    "age": 70\n  }\n}';

/** What deleting a policy removes, in words: "All 2 published versions and the draft leave". */
function deletedRecords(records: Record_[]): string {
  const versions = versionCount(records);
  const parts = [];
  if (versions > 0) parts.push(versions === 1 ? 'Its published version' : `All ${versions} published versions`);
  if (records.some((r) => r.status === 'DRAFT')) parts.push(parts.length ? 'the draft' : 'Its draft');
  return `${parts.join(' and ')} ${parts.length === 1 && versions <= 1 ? 'leaves' : 'leave'}`;
}

/**
 * Where the rule a reference names begins in text: the line of its label
 * ("identity. A ...") or of its outcome phrase ("... passes the credit
 * check if ..."); -1 when neither is found.
 */
function ruleStart(text: string, name: string): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const label = new RegExp(`^[ \\t]*${escaped}\\.\\s`, 'mi').exec(text);
  if (label) return label.index;
  const outcome = new RegExp(`${escaped}\\s+if\\b`, 'i').exec(text);
  if (!outcome) return -1;
  return text.lastIndexOf('\n', outcome.index) + 1;
}

/** A rule check's diagnostics as the Publish dialog lists them, with the place the editor underlines. */
function publishProblems(diagnostics: RuleDiagnostic[]): PublishProblem[] {
  return diagnostics.map((d) => ({
    severity: d.severity === 'ERROR' ? 'error' : d.severity === 'WARNING' ? 'warning' : 'info',
    message: d.message,
    where: `line ${d.range.start.line}, column ${d.range.start.column}`,
  }));
}

export default function PolicyPage({ baseId, recordId = '' }: { baseId: string; recordId?: string }) {
  const { api } = useSession();
  const { records, hasDraft, loadError, reload, older, reached } = usePolicyRecords(api, baseId, [recordId]);

  if (loadError) return <LoadFailure error={loadError} back={{ to: 'policies', text: 'Back to the policies' }} />;
  // A record the link names but not loaded yet is on its way.
  if (!records || !reached) return <p className="muted pad">Loading…</p>;
  const record = records.find((r) => r.id === recordId) ?? records[0] ?? null;
  return (
    <Editor
      key={record?.id ?? 'new'}
      record={record}
      records={records}
      hasDraft={hasDraft}
      reload={reload}
      older={older}
      unknownRecord={recordId && record?.id !== recordId ? recordId : ''}
    />
  );
}

function Editor({
  record,
  records,
  hasDraft,
  reload,
  older,
  unknownRecord,
}: {
  record: Record_ | null;
  records: Record_[];
  hasDraft: boolean;
  reload: () => Promise<void>;
  older: (() => Promise<void>) | null;
  /** The record the address names when the policy has no such record, and record is shown in its place; '' otherwise. */
  unknownRecord: string;
}) {
  const session = useSession();
  const { api, can } = session;
  const storageKey = record?.id ?? 'new';
  // Text kept from earlier in the session. Kept while the record changed
  // elsewhere too: its save then builds on the revision it began from, and
  // is refused as a conflict rather than lost or saved over the change.
  const [restored] = useState(() => loadDraft(storageKey));

  const { isDraft, editable, publishable } = recordRights(session, record);
  const revision = useDraftRevision(record?.revision, record && restored ? restored.revision : record?.revision);

  const [tab, setTab] = useTab<Tab>(record ? tabs : tabs.filter((t) => t !== 'decisions'));
  const [name, setName] = useState(restored?.name ?? record?.name ?? '');
  const [rule, setRule] = useState(restored?.rule ?? record?.rule ?? '');
  const [tests, setTests] = useState<PolicyTestInput[]>(restored?.tests ?? testsOf(record));
  const [schema, setSchema] = useState(restored?.schema ?? schemaText(record?.schema));
  const parsedSchema = useMemo(() => schemaOf(schema), [schema]);
  const storedSchema = record?.schema ?? null;
  const schemaChanged = useMemo(
    () => parsedSchema.problem !== '' || !sameJSON(parsedSchema.value, storedSchema),
    [parsedSchema, storedSchema],
  );
  const sampleKey = record?.baseId ?? 'new';
  const [sample, setSample] = useState(
    () => loadSample(sampleKey) ?? (record && record.tests[0] ? formatJSON(record.tests[0].data) : record ? '{}' : NEW_SAMPLE),
  );
  // A run keeps the rule and sample it ran on: its result is a test's expectation only for those.
  const [run, setRun] = useState<{ result: RunResultFieldsFragment; rule: string; sample: string } | null>(null);
  // The runs of a list of samples, with the rule and samples they ran on.
  const [batch, setBatch] = useState<{ results: RunResultFieldsFragment[]; rule: string; sample: string } | null>(null);
  const [runError, setRunError] = useState('');
  const [report, setReport] = useState<TestReport | null>(null);
  // The version the record is now: a draft published meanwhile is one.
  const versionNow = async () => (record ? (await api.request(PolicyDocument, { id: record.id })).policy?.version : null);
  const { busy, notice, setNotice, act } = useAction(undefined, record?.id, versionNow);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The diagnostics of the text the open Publish dialog would publish; null while it is closed.
  const [publishCheck, setPublishCheck] = useState<RuleDiagnostic[] | null>(null);
  const ruleView = useRef<EditorView | null>(null);
  const sampleView = useRef<EditorView | null>(null);

  const dirty = !record || name !== record.name || rule !== record.rule || !sameJSON(tests, testsOf(record)) || schemaChanged;

  // Every edit is kept for the tab's session, so a reload or a refused key loses nothing.
  useEffect(() => {
    if (!dirty || (!record && !rule && !name)) {
      dropDraft(storageKey);
    } else {
      storeDraft(storageKey, { recordId: record?.id ?? '', revision: record?.revision ?? 0, name, rule, tests, schema });
    }
  }, [storageKey, record, dirty, name, rule, tests, schema]);
  useEffect(() => storeSample(sampleKey, sample), [sampleKey, sample]);

  const sampleProblem = useMemo(() => jsonProblem(sample), [sample]);

  // The rule is checked against the schema being edited, as the server
  // will check the saved draft; against the stored one while the edited
  // text is not a schema. A new schema checks the unchanged rule again.
  const checkedSchema = parsedSchema.problem ? storedSchema : parsedSchema.value;
  const checkedSchemaRef = useRef<unknown>(checkedSchema);
  const check = useMemo(() => checkRule(api, () => checkedSchemaRef.current), [api]);
  useEffect(() => {
    if (checkedSchemaRef.current === checkedSchema) return;
    checkedSchemaRef.current = checkedSchema;
    ruleView.current?.dispatch({ effects: recheck.of(null) });
  }, [checkedSchema]);

  // Completion offers the names of the sample data (the last that parsed)
  // and of the schema.
  const sampleNames = useRef<DataNames>({ selectors: [], properties: [] });
  const names = useRef<DataNames>({ selectors: [], properties: [] });
  useEffect(() => {
    if (!sampleProblem) sampleNames.current = namesOfSample(JSON.parse(sample));
    names.current = mergeNames(sampleNames.current, namesOfSchema(checkedSchema));
  }, [sample, sampleProblem, checkedSchema]);

  // A run that cannot start leaves no result of an earlier one on the
  // page, where it would read as this run's.
  const refuseRun = (why: string) => {
    setRun(null);
    setBatch(null);
    setRunError(why);
  };

  const onRun = () =>
    act(async () => {
      setRunError('');
      if (sampleProblem) {
        // Said under the sample's editor already.
        refuseRun('');
        return;
      }
      const data = JSON.parse(sample) as unknown;
      if (Array.isArray(data)) {
        await runSamples(data);
        return;
      }
      if (!isJSONObject(data)) {
        refuseRun('The sample data must be a JSON object, or a list of them.');
        return;
      }
      const res =
        record && rule === record.rule
          ? (await api.request(RunPolicyVersionDocument, { input: { policyId: record.id, data } })).runPolicyVersion!
          : (await api.request(RunRuleDocument, { input: { rule, data } })).runRule!;
      setBatch(null);
      setRun({ result: res, rule, sample });
    });

  // A list of samples runs as one batch of the saved record: a batch runs
  // only stored rules.
  const runSamples = async (items: unknown[]) => {
    const problem = batchProblem(items, 'sample');
    if (problem) {
      refuseRun(problem);
      return;
    }
    if (!record || rule !== record.rule) {
      refuseRun('A list of samples runs the saved rule: save the draft first, or run one sample at a time.');
      return;
    }
    const res = (await api.request(RunPolicyVersionBatchDocument, { input: { policyId: record.id, items } })).runPolicyVersionBatch!;
    setRun(null);
    setBatch({ results: res.results, rule, sample });
  };

  // The editors are made once; Ctrl+Enter in them runs what Run would now.
  const runByKey = useRef<(() => void) | null>(null);
  runByKey.current = can.run && !busy ? () => void onRun() : null;

  const runStale = !!run && (run.rule !== rule || run.sample !== sample);
  const batchStale = !!batch && (batch.rule !== rule || batch.sample !== sample);

  // Every save sends the revision the page's edits build on, and keeps the
  // one the server answers for the next.
  const saveDraft = async (id: string, changes: Omit<UpdatePolicyDraftInput, 'id' | 'revision'>) => {
    const res = await api.request(UpdatePolicyDraftDocument, { input: { id, revision: revision.current, ...changes } });
    revision.current = res.updatePolicyDraft!.policy.revision;
    return res.updatePolicyDraft!;
  };

  const onAddTest = () =>
    act(async () => {
      if (!run || runStale || run.result.error) return;
      const testName = sampleName(tests);
      const expected = run.result.result;
      const next = [...tests, { name: testName, data: JSON.parse(run.sample), expect: expected }];
      setTests(next);
      if (record) {
        await saveDraft(record.id, { tests: next });
        setNotice({ kind: 'ok', text: `Test “${testName}” saved, expecting ${expected}.` });
        await reload();
      } else {
        // Nothing is stored before the draft is created.
        setNotice({ kind: 'ok', text: `Test “${testName}” added, expecting ${expected}: save the draft to keep it.` });
      }
    });

  // A schema that is not one is the server's to refuse, but the page says why first.
  const schemaRefused = () => {
    if (!parsedSchema.problem) return false;
    setTab('schema');
    setNotice({ kind: 'error', text: `The schema is not saved: ${parsedSchema.problem}` });
    return true;
  };

  const onSave = () =>
    act(async () => {
      if (schemaRefused()) return;
      if (!record) {
        const res = await api.request(CreatePolicyDocument, { input: { name, rule, tests, schema: parsedSchema.value } });
        dropDraft('new');
        storeSample(res.createPolicy!.policy.baseId, sample);
        // The new draft's page is made anew: it says so.
        carryNotice(res.createPolicy!.policy.id, { kind: 'ok', text: 'Draft created.' });
        navigate(`policies/${res.createPolicy!.policy.baseId}`, { replace: true });
        return;
      }
      const saved = await saveDraft(record.id, { name, rule, tests, schema: parsedSchema.value });
      dropDraft(storageKey);
      const problems = saved.validation.errors;
      await reload();
      setNotice(problems.length > 0 ? { kind: 'error', text: 'Saved, but the rule does not parse:', details: problems } : { kind: 'ok', text: 'Draft saved.' });
    });

  // Saved first, so that the replay in the dialog and the gate's failures
  // run on exactly the text that is published. The saved record is loaded
  // again: the page compares the text with it, and a cancelled dialog
  // leaves nothing to save. The dialog lists the diagnostics alone, so
  // the check asks for no tokens.
  const onPublish = () =>
    act(async () => {
      if (!record) return;
      if (dirty) {
        if (schemaRefused()) return;
        await saveDraft(record.id, { name, rule, tests, schema: parsedSchema.value });
        dropDraft(storageKey);
        await reload();
      }
      setPublishCheck((await check(rule, false)).diagnostics);
    });

  // The check's errors mark a rule that does not parse, which the server
  // publishes not, or one that cannot mean what it says; its warnings do
  // not stop a publish.
  const publishRefusal = publishCheck?.some((d) => d.severity === 'ERROR')
    ? 'The rule has errors: it can be published once the errors above are fixed.'
    : '';

  const recordId = record?.id;
  const replay = useCallback(
    async () => (await api.request(ReplayPolicyDocument, { input: { policyId: recordId! } })).replayPolicy!,
    [api, recordId],
  );

  const publish = () =>
    act(async () => {
      if (!record) return;
      try {
        const published = (await api.request(PublishPolicyDocument, { input: { id: record.id, revision: revision.current } })).publishPolicy!;
        dropDraft(storageKey);
        await reload();
        // The draft's record is the new version's: the page stays, and says so.
        navigate(`policies/${published.baseId}?record=${published.id}`, { replace: true });
        setNotice({ kind: 'ok', text: `Published as version ${published.version}.` });
      } catch (err) {
        // The gate names the failing tests; running them shows why each fails.
        const failed = tests.length > 0 ? await testPolicy(api, record.id, tests).catch(() => null) : null;
        await reload();
        setNotice(await refusalNotice(err, { recordId: record.id, versionNow, refused: 'Not published' }));
        if (failed && !failed.passed) {
          setReport(failed);
          setTab('tests');
        }
      }
    });

  const onNewDraft = () =>
    act(async () => {
      if (!record) return;
      if (hasDraft && !window.confirm('This policy has a draft already. Replace it with this version?')) return;
      const res = await api.request(CreatePolicyDraftFromVersionDocument, { input: { id: record.id, replace: hasDraft } });
      await reload();
      navigate(`policies/${res.createPolicyDraftFromVersion!.baseId}?record=${res.createPolicyDraftFromVersion!.id}`);
    });

  const onDelete = () =>
    act(async () => {
      if (!record) return;
      await api.request(DeletePolicyDocument, { input: { id: record.baseId } });
      records.forEach((r) => dropDraft(r.id));
      navigate('policies');
    });

  const onRunTests = () =>
    act(async () => {
      if (!record) return;
      setReport(await testPolicy(api, record.id, tests));
    });

  // A test's data becomes the sample of Try it, through the editor, which
  // owns its text once made.
  const useTestData = (t: PolicyTestInput) => {
    const view = sampleView.current;
    if (view) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: formatJSON(t.data) } });
    setTab('editor');
  };

  const showRule = (name: string) => {
    const view = ruleView.current;
    const at = view ? ruleStart(view.state.doc.toString(), name) : -1;
    if (!view || at < 0) return;
    view.dispatch({ selection: { anchor: at }, scrollIntoView: true });
    view.focus();
  };

  // A rollback publishes the version's content again, through the same gate
  // as a publish; a refusal shows the failing tests the same way.
  const onRollback = () =>
    act(async () => {
      if (!record) return;
      try {
        const published = (await api.request(RollbackPolicyDocument, { input: { id: record.id } })).rollbackPolicy!;
        // A new record: its page is made anew, with the notice.
        carryNotice(published.id, { kind: 'ok', text: `Version ${record.version} published again as version ${published.version}.` });
        await reload();
        navigate(`policies/${published.baseId}?record=${published.id}`, { replace: true });
      } catch (err) {
        const failed = tests.length > 0 ? await testPolicy(api, record.id, tests).catch(() => null) : null;
        setNotice({ kind: 'error', text: `Not rolled back: ${errorMessage(err)}` });
        if (failed && !failed.passed) {
          setReport(failed);
          setTab('tests');
        }
      }
    });

  return (
    <div className="page page-wide">
      <RecordHeader
        path="policies"
        crumb="Policies"
        newTitle="New policy"
        record={record}
        records={records}
        notice={notice}
        busy={busy}
        editable={editable}
        publishable={publishable}
        saveable={!!name.trim() && (!record || dirty)}
        onSave={onSave}
        onPublish={onPublish}
        onNewDraft={onNewDraft}
        onRollback={onRollback}
        onDelete={() => setConfirmDelete(true)}
        onLoadAgain={() => {
          dropDraft(storageKey);
          window.location.reload();
        }}
      />
      {unknownRecord && record && <NotThisRecord id={unknownRecord} noun="policy" shown={record} />}
      {restored && dirty && <RestoredNotice began={restored.revision} now={record?.revision} />}

      <div className="tabs" role="tablist" aria-label="Policy">
        {tabs.filter((t) => t !== 'decisions' || record).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls={`panel-${t}`}
            className="tab"
            onClick={() => setTab(t)}
          >
            {t === 'editor'
              ? 'Rule and try it'
              : t === 'tests'
                ? `Tests (${tests.length})`
                : t === 'schema'
                  ? 'Schema'
                  : t === 'versions'
                    ? `Versions (${versionCount(records)})`
                    : 'Decisions'}
          </button>
        ))}
      </div>

      <div id="panel-editor" role="tabpanel" aria-labelledby="tab-editor" hidden={tab !== 'editor'} className="split">
        <section className="panel" aria-labelledby="rule-heading">
          <div className="panel-head">
            <h2 id="rule-heading">Rule</h2>
            {!editable && <span className="muted small">{isDraft ? 'Read only for your role' : 'Published versions do not change'}</span>}
          </div>
          <NameField
            id="policy-name"
            name={name}
            editable={editable}
            refusal={refusedField(notice, { 'policy-name': /^name\b/ }) && NOTICE_ID}
            onChange={setName}
          />
          <CodeMirror
            className="editor editor-rule"
            resetKey={storageKey}
            onView={(v) => (ruleView.current = v)}
            makeState={() =>
              ruleEditorState({
                doc: rule,
                readOnly: !editable,
                label: 'Rule text',
                check,
                names: () => names.current,
                onChange: setRule,
                onRun: () => runByKey.current?.(),
              })
            }
          />
          <p className="muted small hint">
            {editable && (
              <>
                Ctrl+Space completes operators, and selectors (<code>**</code>) and properties (<code>__</code>) from the sample data and the schema;{' '}
              </>
            )}
            Ctrl+Shift+M lists the problems; Ctrl+Enter runs. A list of objects as the sample data runs each of them on the saved rule.
          </p>
        </section>
        <section className="panel" aria-labelledby="try-heading">
          <div className="panel-head">
            <h2 id="try-heading">Try it</h2>
            <div className="actions">
              {can.run && (
                <button type="button" className="btn btn-primary" onClick={onRun} disabled={busy}>
                  Run
                </button>
              )}
              {run && !runStale && !run.result.error && editable && (
                <button type="button" className="btn" onClick={onAddTest} disabled={busy}>
                  Add as test (expect {String(run.result.result)})
                </button>
              )}
            </div>
          </div>
          <span className="label" id="sample-label">
            Sample data (JSON)
          </span>
          <CodeMirror
            className="editor editor-json"
            resetKey={storageKey}
            onView={(v) => (sampleView.current = v)}
            invalid={invalidField(sampleProblem ? 'sample-problem' : runError ? 'run-error' : null)}
            makeState={() => jsonEditorState({ doc: sample, label: 'Sample data (JSON)', onChange: setSample, onRun: () => runByKey.current?.() })}
          />
          {sampleProblem && (
            <FieldError id="sample-problem" live="status">
              Not valid JSON: {sampleProblem}
            </FieldError>
          )}
          {runError && (
            <p className="alert alert-error" id="run-error" role="alert">
              {runError}
            </p>
          )}
          {runStale && (
            <p className="alert alert-info" data-testid="run-stale">
              The sample data or the rule changed since this run: run again to add the sample as a test.
            </p>
          )}
          {batchStale && (
            <p className="alert alert-info" data-testid="batch-stale">
              The samples or the rule changed since these runs: run again to see what they give now.
            </p>
          )}
          {run && <RunResultView result={run.result} onReference={showRule} />}
          {batch && <BatchResultView results={batch.results} onReference={showRule} />}
        </section>
      </div>

      <div id="panel-tests" role="tabpanel" aria-labelledby="tab-tests" hidden={tab !== 'tests'}>
        <TestsPanel
          tests={tests}
          report={report}
          editable={editable}
          canRun={can.run && !!record}
          ruleChanged={!!record && rule !== record.rule}
          busy={busy}
          onChange={setTests}
          onUse={useTestData}
          onRunAll={onRunTests}
        />
      </div>

      <div id="panel-schema" role="tabpanel" aria-labelledby="tab-schema" hidden={tab !== 'schema'}>
        <section className="panel" aria-labelledby="schema-heading">
          <div className="panel-head">
            <h2 id="schema-heading">Schema</h2>
          </div>
          <p className="muted small">
            The JSON Schema of the data this policy reads. The rule editor checks the names the rule reads, and the types of
            their values, against it as you type. Leave it empty for none; it is saved with the draft.
          </p>
          <CodeMirror
            className="editor editor-json"
            resetKey={storageKey}
            invalid={invalidField(parsedSchema.problem ? 'schema-problem' : null)}
            makeState={() => jsonEditorState({ doc: schema, label: 'Schema (JSON)', readOnly: !editable, optional: true, onChange: setSchema })}
          />
          {parsedSchema.problem && (
            <FieldError id="schema-problem" live="status">
              {parsedSchema.problem}
            </FieldError>
          )}
        </section>
      </div>

      <div id="panel-versions" role="tabpanel" aria-labelledby="tab-versions" hidden={tab !== 'versions'}>
        <VersionsPanel path="policies" records={records} current={record} older={older} />
      </div>

      {record && (
        <div id="panel-decisions" role="tabpanel" aria-labelledby="tab-decisions" hidden={tab !== 'decisions'}>
          {tab === 'decisions' && (
            <DecisionsPanel kind="policy" record={record} />
          )}
        </div>
      )}

      {confirmDelete && record && (
        <DeleteDialog noun="policy" name={record.name} onClose={() => setConfirmDelete(false)} onDelete={() => void onDelete()}>
          {deletedRecords(records)} the lists, and running it by any of its ids answers “deleted”. This cannot be undone.
        </DeleteDialog>
      )}
      {publishCheck && record && (
        <PublishDialog
          title={`Publish “${record.name}”?`}
          problems={publishProblems(publishCheck)}
          refusal={publishRefusal}
          replay={replay}
          onCancel={() => setPublishCheck(null)}
          onPublish={() => {
            setPublishCheck(null);
            publish();
          }}
        />
      )}
    </div>
  );
}

function TestsPanel({
  tests,
  report,
  editable,
  canRun,
  ruleChanged,
  busy,
  onChange,
  onUse,
  onRunAll,
}: {
  tests: PolicyTestInput[];
  report: TestReport | null;
  editable: boolean;
  canRun: boolean;
  ruleChanged: boolean;
  busy: boolean;
  onChange: (tests: PolicyTestInput[]) => void;
  onUse: (t: PolicyTestInput) => void;
  onRunAll: () => void;
}) {
  return (
    <section className="panel" aria-labelledby="tests-heading">
      <div className="panel-head">
        <h2 id="tests-heading">Tests</h2>
        {canRun && (
          <button type="button" className="btn btn-primary" onClick={onRunAll} disabled={busy || tests.length === 0}>
            Run all tests
          </button>
        )}
      </div>
      {ruleChanged && <p className="muted small">Tests run the saved rule text: save the draft to test your changes.</p>}
      <TestSummary report={report} />
      <TestsTable
        tests={tests}
        results={report?.results}
        editable={editable}
        outcomes={false}
        input="data"
        empty="No tests yet. Run the rule on sample data, then add the sample as a test."
        onUse={onUse}
        onChange={onChange}
      />
    </section>
  );
}
