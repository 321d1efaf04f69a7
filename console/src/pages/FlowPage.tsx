import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  CreateFlowDocument,
  CreateFlowDraftFromVersionDocument,
  DeleteFlowDocument,
  FlowDocument,
  FlowValidationDocument,
  PublishFlowDocument,
  ReplayFlowDocument,
  RollbackFlowDocument,
  RunFlowVersionBatchDocument,
  RunFlowVersionDocument,
  TestFlowDocument,
  TestFlowRecordDocument,
  UpdateFlowDraftDocument,
} from '@verdict/client';
import type { FlowFieldsFragment, FlowRunResultFieldsFragment, FlowTestInput, TestFlowRecordMutation } from '@verdict/client';
import { VerdictError, errorMessage, saysUnreachable } from '../api';
import { useRetryWhileUnreachable } from '../reconnect';
import { formatJSON, plural, sameJSON } from '../format';
import { Link, navigate, useTab } from '../router';
import { useFlowRecords } from '../records';
import { versionCount } from '../versions';
import { recordRights, useSession } from '../session';
import { carryNotice, refusalNotice, useAction } from '../action';
import { useModal } from '../focus';
import { sampleName, testsOf } from '../tests';
import { DecisionsPanel } from '../components/DecisionsPanel';
import { DeleteDialog } from '../components/DeleteDialog';
import { LoadFailure } from '../components/LoadFailure';
import { NOTICE_ID, NotThisRecord, RecordHeader } from '../components/RecordHeader';
import { PublishDialog } from '../components/PublishDialog';
import { TestSummary } from '../components/TestSummary';
import { TestsTable } from '../components/TestsTable';
import { VersionsPanel } from '../components/VersionsPanel';
import { RunResultView } from '../components/RunResult';
import {
  addNode,
  asDefinition,
  edgesOf,
  emptyDefinition,
  handlesOf,
  nodeTitle,
  policyRefOf,
  removeNode,
  setBranch,
  setPolicy,
  startOf,
  targets,
  updateNode,
  branchMember,
  changeType,
} from '../flows/definition';
import type { Branch, Definition, FlowNode, NodeType, TypeStash } from '../flows/definition';
import { nodeNamed, placeProblems, problemCounts, problemText, problemsOf, publishRefusal } from '../flows/problems';
import type { Problem } from '../flows/problems';
import { runPath } from '../flows/path';
import type { RunPath } from '../flows/path';
import { FlowGraph } from '../flows/FlowGraph';
import { FlowBatchView } from '../flows/FlowBatch';
import type { GraphModel, Reveal } from '../flows/FlowGraph';
import { PolicyPicker, policyLabel, usePolicies } from '../flows/PolicyPicker';
import { dropFlowEdits, loadFlowEdits, loadProblems, storeFlowEdits, storeProblems } from '../flows/storage';
import { useDraftRevision } from '../revision';
import { NameField } from '../components/NameField';
import { FieldError, invalidField, refusedField } from '../components/FieldError';
import { RestoredNotice } from '../components/RestoredNotice';
import { batchProblem, isJSONObject, parseJSON } from '../runData';
import { answerWords } from '../flows/answer';

type Rec = FlowFieldsFragment;
type Tab = 'graph' | 'tests' | 'versions' | 'decisions';
const tabs: Tab[] = ['graph', 'tests', 'versions', 'decisions'];

const NEW_DATA = '{\n  "applicant": {\n    "age": 30\n  }\n}';

export default function FlowPage({ baseId, recordId = '' }: { baseId: string; recordId?: string }) {
  const { api } = useSession();
  const { records, hasDraft, loadError, reload, older, reached } = useFlowRecords(api, baseId, [recordId]);

  if (loadError) return <LoadFailure error={loadError} back={{ to: 'flows', text: 'Back to the flows' }} />;
  // A record the link names but not loaded yet is on its way.
  if (!records || !reached) return <p className="muted pad">Loading…</p>;
  const record = records.find((r) => r.id === recordId) ?? records[0] ?? null;
  return (
    <FlowEditor
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

/** How many problems the definition has, and where they are shown: on their nodes, or in the list above the graph. */
function problemCount(problems: Problem[], general: number): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  const counted = `${plural(errors, 'error', 'errors')} and ${plural(problems.length - errors, 'warning', 'warnings')}`;
  if (general === 0) return `${counted}, shown on the nodes they concern.`;
  if (general === problems.length) return `${counted}, listed above.`;
  return `${counted}: those about a node are shown on it, the others listed above.`;
}

/**
 * What a custom node, or the return node a run ended on, did in the run:
 * neither runs a policy, so there is no result of a rule to show.
 */
function stepWords(d: Definition, id: string, path: RunPath): string {
  const node = d.nodes.find((n) => n.id === id);
  if (node?.type === 'return') return `The run ended here, returning ${String(node.returnValue)}.`;
  const next = [...path.nodes].filter((t) => targets(node?.next as Branch).includes(t));
  const outcome = `This custom node gave the outcome “${node?.outcome ?? ''}”`;
  return next.length > 0 ? `${outcome}, and the run went on to ${next.join(', ')}.` : `${outcome}, and the run ended here with it.`;
}

/** The problems a refused request lists, when it is about the definition. */
function refusedProblems(err: unknown): Problem[] | null {
  if (err instanceof VerdictError && err.code === 'invalid_argument' && err.details.length > 0) {
    return err.details.map((message) => ({ severity: 'error', message }));
  }
  return null;
}

function FlowEditor({
  record,
  records,
  hasDraft,
  reload,
  older,
  unknownRecord,
}: {
  record: Rec | null;
  records: Rec[];
  hasDraft: boolean;
  reload: () => Promise<void>;
  older: (() => Promise<void>) | null;
  /** The record the address names when the flow has no such record, and record is shown in its place; '' otherwise. */
  unknownRecord: string;
}) {
  const session = useSession();
  const { api, can } = session;
  const storageKey = record?.id ?? 'new';
  // Edits kept from earlier in the session, as the policy page keeps them.
  const [restored] = useState(() => loadFlowEdits(storageKey));
  const { isDraft, editable, publishable } = recordRights(session, record);
  const revision = useDraftRevision(record?.revision, record && restored ? restored.revision : record?.revision);

  const [tab, setTab] = useTab<Tab>(record ? tabs : tabs.filter((t) => t !== 'decisions'));
  const [name, setName] = useState(restored?.name ?? record?.name ?? '');
  const [description, setDescription] = useState(restored?.description ?? record?.description ?? '');
  // What changes of a node's type took from it, kept while this record is open.
  const typeStashes = useRef(new Map<string, TypeStash>());
  const [definition, setDefinition] = useState<Definition>(() =>
    restored ? asDefinition(restored.definition) : record ? asDefinition(record.definition) : emptyDefinition(),
  );
  const [tests, setTests] = useState<FlowTestInput[]>(restored?.tests ?? testsOf(record));
  const [selected, setSelected] = useState<string | null>(null);
  // A node chosen elsewhere than on the graph (the Node list, a problem or
  // an error naming it, a node just added, a run's last node) is brought
  // into view too; one clicked on the graph is there already.
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const selectAndShow = (id: string | null) => {
    setSelected(id);
    if (id) setReveal({ id });
  };
  const [problems, setProblems] = useState<Problem[]>(() => (record ? (loadProblems(record.id, record.revision) ?? []) : []));
  const [data, setData] = useState(() => (record?.tests[0] ? formatJSON(record.tests[0].data) : NEW_DATA));
  // Why the input cannot run, said under it; '' while it can.
  const [dataError, setDataError] = useState('');
  // A run keeps the definition and input it ran on: its result is a test's expectation only for those.
  // data is the text of the input box it ran from; input, the object it ran on (one of a list's, for a batch).
  const [run, setRun] = useState<{
    result: FlowRunResultFieldsFragment;
    definition: Definition;
    data: string;
    input: Record<string, unknown>;
    item: number | null;
  } | null>(null);
  // The runs of a list of inputs, one of which shows on the graph as run.
  const [batch, setBatch] = useState<{
    results: FlowRunResultFieldsFragment[];
    items: Record<string, unknown>[];
    definition: Definition;
    data: string;
  } | null>(null);
  const [report, setReport] = useState<NonNullable<TestFlowRecordMutation['testFlowRecord']> | null>(null);
  // The version the record is now: a draft published meanwhile is one.
  const versionNow = async () => (record ? (await api.request(FlowDocument, { id: record.id })).flow?.version : null);
  const { busy, notice, setNotice, act } = useAction(
    (err) => {
      const listed = refusedProblems(err);
      if (listed) setProblems(listed);
    },
    record?.id,
    versionNow,
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [confirmPublish, setConfirmPublish] = useState(false);
  const [importing, setImporting] = useState(false);

  // A record's problems are asked for whenever it opens, those kept in the
  // tab shown meanwhile: a draft saved in another tab, or one whose policy
  // was deleted since (which leaves its revision as it was), shows them as
  // soon as it opens. A save on this page answers them itself.
  const recordId = record?.id;
  const recordRevision = record?.revision;
  const answeredBySave = useRef('');
  // Asked again by itself when the server could not be reached.
  const [uncheckedWhy, setUncheckedWhy] = useState('');
  const [checkAttempt, setCheckAttempt] = useState(0);
  useRetryWhileUnreachable(saysUnreachable(uncheckedWhy), () => setCheckAttempt((a) => a + 1));
  useEffect(() => {
    if (recordId === undefined || recordRevision === undefined || answeredBySave.current === `${recordId}@${recordRevision}`) {
      setUncheckedWhy('');
      return;
    }
    let current = true;
    api.request(FlowValidationDocument, { id: recordId }).then(
      ({ flowValidation }) => {
        if (!current || !flowValidation) return;
        const found = problemsOf(flowValidation);
        storeProblems(recordId, recordRevision, found);
        setProblems(found);
        setUncheckedWhy('');
      },
      (err: unknown) => {
        if (!current) return;
        setProblems([{ severity: 'warning', message: `The flow's problems could not be checked: ${errorMessage(err)}` }]);
        setUncheckedWhy(errorMessage(err));
      },
    );
    return () => {
      current = false;
    };
  }, [api, recordId, recordRevision, checkAttempt]);

  const saved = useMemo(() => (record ? asDefinition(record.definition) : null), [record]);
  const dirty =
    !record ||
    name !== record.name ||
    description !== record.description ||
    !sameJSON(definition, saved) ||
    !sameJSON(tests, testsOf(record));

  useEffect(() => {
    if (!dirty || !record) {
      if (record) dropFlowEdits(storageKey);
      else storeFlowEdits(storageKey, { revision: 0, name, description, definition, tests });
    } else {
      storeFlowEdits(storageKey, { revision: record.revision, name, description, definition, tests });
    }
  }, [storageKey, record, dirty, name, description, definition, tests]);

  const refs = definition.nodes.map(policyRefOf).filter((r) => r !== null);
  const policies = usePolicies(
    api,
    refs.map((r) => r.id),
  );

  const placed = useMemo(() => placeProblems(definition, problems), [definition, problems]);
  // A run belongs to the definition it ran; an edit since makes it stale.
  const current = run && JSON.stringify(run.definition) === JSON.stringify(definition) ? run.result : null;
  const inputChanged = !!current && run?.data !== data;
  const currentBatch = batch && JSON.stringify(batch.definition) === JSON.stringify(definition) ? batch : null;
  const path = useMemo(() => (current ? runPath(definition, current) : null), [current, definition]);

  const model = useMemo<GraphModel>(() => {
    const start = startOf(definition);
    const responses = new Map(current?.nodeResponses.map((r) => [r.nodeId, r]));
    return {
      nodes: definition.nodes.map((n) => {
        const ref = policyRefOf(n);
        const resp = responses.get(n.id);
        let result: GraphModel['nodes'][number]['result'];
        if (resp) {
          result = resp.response.error
            ? { text: 'error', tone: 'error' }
            : resp.nodeType === 'CUSTOM'
              ? { text: 'outcome', tone: 'neutral' }
              : { text: String(resp.response.result), tone: resp.response.result ? 'pass' : 'fail' };
        } else if (path?.nodes.has(n.id) && n.type === 'return') {
          result = { text: `returned ${String(n.returnValue)}`, tone: n.returnValue === true ? 'pass' : 'fail' };
        }
        return {
          id: n.id,
          node: n,
          isStart: n.id === start,
          policyLabel: ref ? (policies.has(ref.id) ? policyLabel(ref.kind, policies.get(ref.id) ?? null) : 'Policy…') : undefined,
          problems: placed.byNode.get(n.id) ?? [],
          result,
          onPath: path?.nodes.has(n.id),
        };
      }),
      edges: edgesOf(definition).map((e) => ({ ...e, problems: placed.byEdge.get(e.id) ?? [], onPath: path?.edges.has(e.id) })),
    };
  }, [definition, placed, current, path, policies]);

  // What was saved, as the server stores it (a definition comes back in
  // format version 1), becomes what the editor holds.
  const adopt = (res: { flow: Rec; validation: { errors: string[]; warnings: string[] } }) => {
    revision.current = res.flow.revision;
    answeredBySave.current = `${res.flow.id}@${res.flow.revision}`;
    const found = problemsOf(res.validation);
    storeProblems(res.flow.id, res.flow.revision, found);
    setProblems(found);
    setName(res.flow.name);
    setDescription(res.flow.description);
    setDefinition(asDefinition(res.flow.definition));
    setTests(testsOf(res.flow));
  };

  const onSave = () =>
    act(async () => {
      if (!record) {
        const res = await api.request(CreateFlowDocument, { input: { name, description, definition, tests } });
        dropFlowEdits('new');
        const f = res.createFlow!.flow;
        storeProblems(f.id, f.revision, problemsOf(res.createFlow!.validation));
        // The new draft's page is made anew: it says so.
        carryNotice(f.id, { kind: 'ok', text: 'Draft created.' });
        navigate(`flows/${f.baseId}`, { replace: true });
        return;
      }
      const res = await api.request(UpdateFlowDraftDocument, { input: { id: record.id, revision: revision.current, name, description, definition, tests } });
      dropFlowEdits(storageKey);
      adopt(res.updateFlowDraft!);
      await reload();
      setNotice({ kind: 'ok', text: 'Draft saved.' });
    });

  // Saved first, so that the replay in the dialog runs on exactly the
  // definition that is published. The saved record is loaded again: the
  // page compares the edits with it, and a cancelled dialog leaves nothing
  // to save.
  const onPublish = () =>
    act(async () => {
      if (!record) return;
      if (dirty) {
        const res = await api.request(UpdateFlowDraftDocument, { input: { id: record.id, revision: revision.current, name, description, definition, tests } });
        dropFlowEdits(storageKey);
        adopt(res.updateFlowDraft!);
        await reload();
      }
      setConfirmPublish(true);
    });

  const replay = useCallback(
    async () => (await api.request(ReplayFlowDocument, { input: { flowId: recordId! } })).replayFlow!,
    [api, recordId],
  );

  const publish = () =>
    act(async () => {
      if (!record) return;
      try {
        const published = (await api.request(PublishFlowDocument, { input: { id: record.id, revision: revision.current } })).publishFlow!;
        await reload();
        // The draft's record is the new version's: the page stays, and says so.
        navigate(`flows/${published.baseId}?record=${published.id}`, { replace: true });
        setNotice({ kind: 'ok', text: `Published as version ${published.version}.` });
      } catch (err) {
        const listed = refusedProblems(err);
        if (listed) setProblems(listed);
        // The gate names the failing tests; running them shows why each fails.
        const failed = !listed && tests.length > 0 ? await testRecord(record.id).catch(() => null) : null;
        setNotice(await refusalNotice(err, { recordId: record.id, versionNow, refused: 'Not published' }));
        if (failed && !failed.passed) {
          setReport(failed);
          setTab('tests');
        }
      }
    });

  const testRecord = async (id: string) =>
    (await api.request(TestFlowRecordDocument, { input: { flowId: id, tests: tests.map((t) => ({ name: t.name, data: t.data, expect: t.expect })) } }))
      .testFlowRecord!;

  // The input box holds one JSON object, or a list of them to run as a batch.
  const parseData = (): Record<string, unknown> | Record<string, unknown>[] | null => {
    let v: unknown;
    try {
      v = parseJSON(data);
    } catch (err) {
      setDataError(`The test data is not valid JSON: ${(err as Error).message}`);
      return null;
    }
    if (Array.isArray(v)) {
      const problem = batchProblem(v, 'input');
      if (!problem) return v as Record<string, unknown>[];
      setDataError(problem);
      return null;
    }
    if (isJSONObject(v)) return v;
    setDataError('The test data must be a JSON object, or a list of them.');
    return null;
  };

  const isSaved = !!record && JSON.stringify(definition) === JSON.stringify(saved);
  // Editors run what is on the screen; others only the saved definition.
  const runnable = can.run && (can.edit || isSaved);
  const show = (result: FlowRunResultFieldsFragment, ranOn: string, input: Record<string, unknown>, item: number | null) => {
    setRun({ result, definition, data: ranOn, input, item });
    const reached = result.nodeResponses[result.nodeResponses.length - 1];
    selectAndShow(reached?.nodeId ?? null);
  };
  const onRun = () =>
    act(async () => {
      setDataError('');
      const input = parseData();
      // A run that cannot start leaves no result of an earlier one on the
      // page, where it would read as this run's.
      const refused = () => {
        setRun(null);
        setBatch(null);
      };
      if (!input) {
        refused();
        return;
      }
      if (Array.isArray(input)) {
        // A batch runs only stored flows.
        if (!record || !isSaved) {
          refused();
          setDataError('A list of inputs runs the saved flow: save the draft first, or run one input at a time.');
          return;
        }
        const res = (await api.request(RunFlowVersionBatchDocument, { input: { flowId: record.id, items: input } })).runFlowVersionBatch!;
        setBatch({ results: res.results, items: input, definition, data });
        show(res.results[0]!, data, input[0]!, 0);
        return;
      }
      const result =
        record && isSaved
          ? (await api.request(RunFlowVersionDocument, { input: { flowId: record.id, data: input } })).runFlowVersion!
          : (await api.request(TestFlowDocument, { input: { definition, data: input } })).testFlow!;
      setBatch(null);
      show(result, data, input, null);
    });

  const onAddTest = () => {
    if (!run || !current || inputChanged || current.errors.length > 0) return;
    const testName = sampleName(tests);
    const expect = current.outcome ?? current.result;
    setTests([...tests, { name: testName, data: run.input, expect }]);
    setNotice({ kind: 'ok', text: `Test “${testName}” added, expecting ${answerWords(expect)}: save the draft to keep it.` });
  };

  const onRunStored = (t: FlowTestInput) => {
    setData(formatJSON(t.data));
    setTab('graph');
  };

  const onRunTests = () =>
    act(async () => {
      if (!record) return;
      setReport(await testRecord(record.id));
    });

  const onNewDraft = () =>
    act(async () => {
      if (!record) return;
      if (hasDraft && !window.confirm('This flow has a draft already. Replace it with this version?')) return;
      const res = await api.request(CreateFlowDraftFromVersionDocument, { input: { id: record.id, replace: hasDraft } });
      await reload();
      navigate(`flows/${res.createFlowDraftFromVersion!.baseId}?record=${res.createFlowDraftFromVersion!.id}`);
    });

  const onDelete = () =>
    act(async () => {
      if (!record) return;
      await api.request(DeleteFlowDocument, { input: { id: record.baseId } });
      records.forEach((r) => dropFlowEdits(r.id));
      navigate('flows');
    });

  // The server reads every accepted form and stores the definition in
  // format version 1, which the graph then shows. A definition it refuses
  // rejects: the dialog stays open with the text, and says why.
  const onImport = async (text: string) => {
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: YAML, sent as text.
    }
    if (!record) {
      const res = await api.request(CreateFlowDocument, { input: { name: name.trim() || 'Imported flow', description, definition: value, tests } });
      dropFlowEdits('new');
      const f = res.createFlow!.flow;
      storeProblems(f.id, f.revision, problemsOf(res.createFlow!.validation));
      setImporting(false);
      navigate(`flows/${f.baseId}`, { replace: true });
      return;
    }
    const res = await api.request(UpdateFlowDraftDocument, { input: { id: record.id, revision: revision.current, definition: value } });
    dropFlowEdits(storageKey);
    adopt(res.updateFlowDraft!);
    // Only the definition was replaced: unsaved changes to the rest stay, still unsaved.
    setName(name);
    setDescription(description);
    setTests(tests);
    setImporting(false);
    await reload();
  };

  const onAdd = (type: NodeType) => {
    const { definition: next, id } = addNode(definition, type);
    setDefinition(next);
    selectAndShow(id);
  };

  // A rollback publishes the version's definition again, through the same
  // gate as a publish; a refusal shows its problems or failing tests the
  // same way.
  const onRollback = () =>
    act(async () => {
      if (!record) return;
      try {
        const published = (await api.request(RollbackFlowDocument, { input: { id: record.id } })).rollbackFlow!;
        // A new record: its page is made anew, with the notice.
        carryNotice(published.id, { kind: 'ok', text: `Version ${record.version} published again as version ${published.version}.` });
        await reload();
        navigate(`flows/${published.baseId}?record=${published.id}`, { replace: true });
      } catch (err) {
        const listed = refusedProblems(err);
        if (listed) setProblems(listed);
        const failed = !listed && tests.length > 0 ? await testRecord(record.id).catch(() => null) : null;
        setNotice({ kind: 'error', text: `Not rolled back: ${errorMessage(err)}` });
        if (failed && !failed.passed) {
          setReport(failed);
          setTab('tests');
        }
      }
    });
  const selectedNode = definition.nodes.find((n) => n.id === selected) ?? null;
  // The field a refused save is about, which names the refusal.
  const refused = refusedField(notice, { 'flow-name': /^name\b/, 'flow-description': /^description\b/ });
  const selectedResponse = current?.nodeResponses.find((r) => r.nodeId === selected) ?? null;
  const hasStart = definition.nodes.some((n) => n.type === 'start');

  return (
    <div className="page page-wide">
      <RecordHeader
        path="flows"
        crumb="Flows"
        newTitle="New flow"
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
          dropFlowEdits(storageKey);
          window.location.reload();
        }}
      />
      {unknownRecord && record && <NotThisRecord id={unknownRecord} noun="flow" shown={record} />}
      {restored && dirty && record && <RestoredNotice began={restored.revision} now={record?.revision} />}

      <div className="tabs" role="tablist" aria-label="Flow">
        {tabs.filter((t) => t !== 'decisions' || record).map((t) => (
          <button key={t} type="button" role="tab" id={`tab-${t}`} aria-selected={tab === t} aria-controls={`panel-${t}`} className="tab" onClick={() => setTab(t)}>
            {t === 'graph'
              ? 'Graph and test'
              : t === 'tests'
                ? `Tests (${tests.length})`
                : t === 'versions'
                  ? `Versions (${versionCount(records)})`
                  : 'Decisions'}
          </button>
        ))}
      </div>

      <div id="panel-graph" role="tabpanel" aria-labelledby="tab-graph" hidden={tab !== 'graph'} className="flow-layout">
        <section className="panel flow-main" aria-labelledby="graph-heading">
          <div className="panel-head">
            <h2 id="graph-heading">Definition</h2>
            {editable ? (
              <div className="actions" role="toolbar" aria-label="Add nodes">
                {!hasStart && (
                  <button type="button" className="btn btn-small" onClick={() => onAdd('start')}>
                    Add start node
                  </button>
                )}
                <button type="button" className="btn btn-small" onClick={() => onAdd('policy')}>
                  Add policy node
                </button>
                <button type="button" className="btn btn-small" onClick={() => onAdd('return')}>
                  Add return node
                </button>
                <button type="button" className="btn btn-small" onClick={() => onAdd('custom')}>
                  Add custom node
                </button>
                <button type="button" className="btn btn-small" onClick={() => setImporting(true)}>
                  Open a definition…
                </button>
              </div>
            ) : (
              <span className="muted small">{isDraft ? 'Read only for your role' : 'Published versions do not change'}</span>
            )}
          </div>
          {placed.general.length > 0 && (
            <ul className="alert alert-error flow-problems" aria-label="Problems of the flow">
              {placed.general.map((p) => (
                <li key={p.message} className={`problem-${p.severity}`}>
                  {problemText(p)}
                </li>
              ))}
            </ul>
          )}
          {problems.length > 0 && (
            <p className="muted small" role="status" data-testid="problem-count">
              {problemCount(problems, placed.general.length)}
            </p>
          )}
          {placed.byNode.size > 0 && (
            <ul className="problem-nodes" aria-label="Nodes with problems">
              {definition.nodes
                .filter((n) => placed.byNode.has(n.id))
                .map((n) => {
                  const here = placed.byNode.get(n.id)!;
                  const errors = here.filter((p) => p.severity === 'error').length;
                  return (
                    <li key={n.id}>
                      <button
                        type="button"
                        className={`btn btn-small problem-node ${errors ? 'problem-error' : 'problem-warning'}`}
                        title={here.map((p) => p.message).join('\n')}
                        onClick={() => selectAndShow(n.id)}
                      >
                        {n.id}: {problemCounts(here)}
                      </button>
                    </li>
                  );
                })}
            </ul>
          )}
          <FlowGraph
            model={model}
            label="Flow graph"
            editable={editable}
            selected={selected}
            reveal={reveal}
            onSelect={setSelected}
            onConnect={(source, handle, target) => setDefinition(setBranch(definition, source, handle, target))}
            onRemoveNode={(id) => {
              setDefinition(removeNode(definition, id));
              if (selected === id) setSelected(null);
            }}
            onRemoveEdge={(e) => setDefinition(setBranch(definition, e.source, e.handle, null))}
          />
          <p className="muted small hint">
            {editable &&
              'Drag from a node’s green (true) or red (false) handle and drop it anywhere on another node to connect them, or pick the branches in the node’s panel. Delete or Backspace removes the selected node or edge. '}
            Tab reaches the nodes; Enter selects one.
          </p>
        </section>

        <div className="flow-side">
          <section className="panel" aria-labelledby="node-heading">
            <div className="panel-head">
              <h2 id="node-heading">{selectedNode ? `Node ${selectedNode.id}` : 'Flow'}</h2>
              <div className="field field-inline">
                <label htmlFor="node-pick">Node</label>
                <select id="node-pick" value={selected ?? ''} onChange={(e) => selectAndShow(e.target.value || null)}>
                  <option value="">The flow itself</option>
                  {definition.nodes.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.id} — {nodeTitle(n)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            {selectedNode ? (
              <NodeInspector
                node={selectedNode}
                definition={definition}
                editable={editable}
                policyText={model.nodes.find((n) => n.id === selectedNode.id)?.policyLabel}
                problems={placed.byNode.get(selectedNode.id) ?? []}
                stashes={typeStashes.current}
                onChange={setDefinition}
                onDelete={() => {
                  typeStashes.current.delete(selectedNode.id);
                  setDefinition(removeNode(definition, selectedNode.id));
                  setSelected(null);
                }}
              />
            ) : (
              <>
                <NameField id="flow-name" name={name} editable={editable} refusal={refused === 'flow-name' && NOTICE_ID} onChange={setName} />
                <div className="field">
                  <label htmlFor="flow-description">Description</label>
                  <input
                    id="flow-description"
                    value={description}
                    onChange={(e) => setDescription(e.target.value)}
                    readOnly={!editable}
                    {...invalidField(refused === 'flow-description' && NOTICE_ID)}
                  />
                </div>
              </>
            )}
          </section>

          <section className="panel" aria-labelledby="test-heading">
            <div className="panel-head">
              <h2 id="test-heading">Test with data</h2>
              <div className="actions">
                {runnable && (
                  <button type="button" className="btn btn-primary" onClick={onRun} disabled={busy || definition.nodes.length === 0}>
                    Run
                  </button>
                )}
                {current && !inputChanged && current.errors.length === 0 && editable && (
                  <button type="button" className="btn" onClick={onAddTest} disabled={busy}>
                    Add as test (expect {answerWords(current.outcome ?? current.result)})
                  </button>
                )}
              </div>
            </div>
            <label htmlFor="flow-data">Input (JSON)</label>
            <textarea
              id="flow-data"
              className="json-input"
              rows={7}
              value={data}
              onChange={(e) => setData(e.target.value)}
              onKeyDown={(e) => {
                // Ctrl+Enter (⌘Enter) runs, as in a policy's editors.
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && runnable && !busy && definition.nodes.length > 0) {
                  e.preventDefault();
                  void onRun();
                }
              }}
              aria-keyshortcuts="Control+Enter Meta+Enter"
              {...invalidField(dataError && 'flow-data-error', 'flow-data-hint')}
              spellCheck={false}
            />
            {dataError && <FieldError id="flow-data-error">{dataError}</FieldError>}
            <p id="flow-data-hint" className="muted small hint">
              Ctrl+Enter runs. A list of inputs runs each of them on the saved flow.
            </p>
            {inputChanged && (
              <p className="alert alert-info" data-testid="run-stale">
                The input changed since this run: run again to add it as a test.
              </p>
            )}
            {currentBatch && (
              <FlowBatchView
                steps={(r) => runPath(definition, r).steps}
                results={currentBatch.results}
                shown={run?.item ?? null}
                onShow={(i) => show(currentBatch.results[i]!, currentBatch.data, currentBatch.items[i]!, i)}
              />
            )}
            {current && (
              <div className="flow-run" data-testid="flow-run">
                {currentBatch && run?.item != null && <h3 className="small-heading">Input {run.item + 1} of the list</h3>}
                <div className={`verdict ${current.result ? 'verdict-true' : 'verdict-false'}`} role="status">
                  Flow result: <strong>{answerWords(current.outcome ?? current.result)}</strong>
                </div>
                <p className="small" data-testid="flow-path">
                  Path: {path!.steps.join(' → ')}
                </p>
                {current.errors.length > 0 && (
                  <ul className="alert alert-error">
                    {current.errors.map((e) => {
                      const named = nodeNamed(e, definition);
                      return (
                        <li key={e}>
                          {e}
                          {named && (
                            <>
                              {' '}
                              <button type="button" className="linklike" onClick={() => selectAndShow(named)}>
                                Show node {named}
                              </button>
                            </>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                )}
                {selectedResponse || selected === path!.steps[path!.steps.length - 1] ? (
                  <div aria-label={`Result of node ${selected}`} role="region">
                    <h3 className="small-heading">Node {selected}</h3>
                    {selectedResponse && selectedResponse.nodeType !== 'CUSTOM' ? (
                      <RunResultView result={selectedResponse.response} />
                    ) : (
                      <p data-testid="node-step">{stepWords(definition, selected!, path!)}</p>
                    )}
                  </div>
                ) : (
                  <p className="muted small">Select a node that ran to see its trace and explanation.</p>
                )}
              </div>
            )}
          </section>
        </div>
      </div>

      <div id="panel-tests" role="tabpanel" aria-labelledby="tab-tests" hidden={tab !== 'tests'}>
        <section className="panel" aria-labelledby="tests-heading">
          <div className="panel-head">
            <h2 id="tests-heading">Tests</h2>
            {can.run && record && (
              <button type="button" className="btn btn-primary" onClick={onRunTests} disabled={busy || tests.length === 0}>
                Run all tests
              </button>
            )}
          </div>
          {record && dirty && <p className="muted small">Tests run the saved definition: save the draft to test your changes.</p>}
          <TestSummary report={report} />
          <TestsTable
            tests={tests}
            results={report?.results}
            editable={editable}
            outcomes
            input="input"
            empty="No tests yet. Run the flow on an input, then add it as a test."
            onUse={onRunStored}
            onChange={setTests}
          />
        </section>
      </div>

      <div id="panel-versions" role="tabpanel" aria-labelledby="tab-versions" hidden={tab !== 'versions'}>
        <VersionsPanel path="flows" records={records} current={record} older={older} column={{ heading: 'Nodes', cell: (r) => asDefinition(r.definition).nodes.length }} />
      </div>

      {record && (
        <div id="panel-decisions" role="tabpanel" aria-labelledby="tab-decisions" hidden={tab !== 'decisions'}>
          {tab === 'decisions' && (
            <DecisionsPanel kind="flow" record={record} />
          )}
        </div>
      )}

      {importing && <ImportDialog onCancel={() => setImporting(false)} onOpen={onImport} />}
      {confirmDelete && record && (
        <DeleteDialog noun="flow" name={record.name} onClose={() => setConfirmDelete(false)} onDelete={() => void onDelete()}>
          Its draft and every published version leave the lists, and running it by any of its ids answers “deleted”. This cannot be undone.
        </DeleteDialog>
      )}
      {confirmPublish && record && (
        <PublishDialog
          title={`Publish “${record.name}”?`}
          problems={problems}
          refusal={publishRefusal(problems)}
          replay={replay}
          onCancel={() => setConfirmPublish(false)}
          onPublish={() => {
            setConfirmPublish(false);
            publish();
          }}
        />
      )}
    </div>
  );
}

const typeOptions: { value: NodeType; label: string }[] = [
  { value: 'policy', label: 'Policy' },
  { value: 'return', label: 'Return' },
  { value: 'custom', label: 'Custom outcome' },
];

function NodeInspector({
  node,
  definition,
  editable,
  policyText,
  problems,
  stashes,
  onChange,
  onDelete,
}: {
  node: FlowNode;
  definition: Definition;
  editable: boolean;
  policyText?: string;
  problems: Problem[];
  /** What changes of type took from each node, by id, for a change back. */
  stashes: Map<string, TypeStash>;
  onChange: (d: Definition) => void;
  onDelete: () => void;
}) {
  const { api } = useSession();
  const [picking, setPicking] = useState(false);
  const others = definition.nodes.filter((n) => n.id !== node.id);
  const ref = policyRefOf(node);
  return (
    <div className="inspector" data-testid="inspector">
      {problems.length > 0 && (
        <ul className="inspector-problems" aria-label="Problems of this node">
          {problems.map((p) => (
            <li key={p.message} className={`problem-${p.severity}`}>
              {problemText(p)}
            </li>
          ))}
        </ul>
      )}
      <div className="field">
        <label htmlFor="node-name">Node name</label>
        <input id="node-name" value={node.name ?? ''} readOnly={!editable} onChange={(e) => onChange(updateNode(definition, node.id, { name: e.target.value || undefined }))} />
      </div>
      {node.type !== 'start' && (
        <div className="field">
          <label htmlFor="node-type">Type</label>
          <select
            id="node-type"
            value={node.type}
            disabled={!editable}
            onChange={(e) => {
              // Arrow keys on the closed select change the type at each
              // press: what a type cannot hold is kept aside, not lost.
              const changed = changeType(definition, node.id, e.target.value, stashes.get(node.id));
              stashes.set(node.id, changed.stash);
              onChange(changed.definition);
            }}
          >
            {typeOptions.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
            {!typeOptions.some((o) => o.value === node.type) && <option value={node.type}>{node.type}</option>}
          </select>
        </div>
      )}
      {(node.type === 'start' || node.type === 'policy') && (
        <div className="field">
          <span className="label">Policy</span>
          <p className="policy-current" data-testid="node-policy">
            {ref ? policyText ?? 'Policy…' : 'No policy yet'}
            {ref && ref.id && <span className="muted small"> ({ref.kind === 'latest' ? 'follows the latest version' : ref.kind === 'pinned' ? 'pinned' : 'record or base id'})</span>}
          </p>
          {ref && policyText && (
            <Link to={`policies/${ref.id}${ref.kind === 'pinned' ? `?record=${ref.id}` : ''}`} className="small">
              Open the policy
            </Link>
          )}
          {editable &&
            (picking ? (
              <PolicyPicker
                api={api}
                nodeId={node.id}
                onPick={(r) => {
                  onChange(setPolicy(definition, node.id, r));
                  setPicking(false);
                }}
              />
            ) : (
              <button type="button" className="btn btn-small" onClick={() => setPicking(true)}>
                {ref ? 'Change policy' : 'Choose a policy'}
              </button>
            ))}
        </div>
      )}
      {node.type === 'return' && (
        <div className="field">
          <label htmlFor="node-return">Returns</label>
          <select
            id="node-return"
            value={String(node.returnValue)}
            disabled={!editable}
            onChange={(e) => onChange(updateNode(definition, node.id, { returnValue: e.target.value === 'true' }))}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        </div>
      )}
      {node.type === 'custom' && (
        <div className="field">
          <label htmlFor="node-outcome">Outcome</label>
          <input id="node-outcome" value={node.outcome ?? ''} readOnly={!editable} onChange={(e) => onChange(updateNode(definition, node.id, { outcome: e.target.value }))} />
        </div>
      )}
      {handlesOf(node.type).map((h) => {
        const current = targets(node[branchMember[h]] as Branch);
        const label = h === 'true' ? 'When true, go to' : h === 'false' ? 'When false, go to' : 'Then go to';
        return (
          <div className="field" key={h}>
            <label htmlFor={`branch-${h}`}>{label}</label>
            <select
              id={`branch-${h}`}
              value={current.length === 1 ? current[0] : current.length === 0 ? '' : '*'}
              disabled={!editable}
              onChange={(e) => onChange(setBranch(definition, node.id, h, e.target.value || null))}
            >
              <option value="">Nothing: the run ends here</option>
              {current.length > 1 && <option value="*">{current.join(', ')} (one after the other)</option>}
              {current.filter((t) => !others.some((o) => o.id === t)).map((t) => (
                <option key={t} value={t}>
                  {t} (missing)
                </option>
              ))}
              {others
                .filter((o) => o.type !== 'start')
                .map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.id} — {nodeTitle(o)}
                  </option>
                ))}
            </select>
          </div>
        );
      })}
      {editable && (
        <button type="button" className="btn btn-danger btn-small" onClick={onDelete}>
          Delete node {node.id}
        </button>
      )}
    </div>
  );
}

function ImportDialog({ onOpen, onCancel }: { onOpen: (text: string) => Promise<void>; onCancel: () => void }) {
  const [text, setText] = useState('');
  const [opening, setOpening] = useState(false);
  const [refusal, setRefusal] = useState('');
  const ref = useRef<HTMLDialogElement>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  useModal(ref);
  const open = async () => {
    if (opening) return;
    setOpening(true);
    setRefusal('');
    try {
      await onOpen(text);
    } catch (err) {
      // The server's reasons name what is wrong with the text; its message only that it is wrong.
      setRefusal(err instanceof VerdictError && err.details.length > 0 ? err.details.join('; ') : errorMessage(err));
      setOpening(false);
      textArea.current?.focus();
    }
  };
  return (
    <dialog
      ref={ref}
      className="dialog dialog-wide"
      aria-labelledby="import-title"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="import-title">Open a definition</h2>
      <p>
        Paste a definition in any form the server reads: format version 1, the nested YAML form, or the editor graph of nodes and edges (JSON). It replaces the draft’s
        definition and is stored in format version 1.
      </p>
      <label htmlFor="import-text">Definition (YAML or JSON)</label>
      <textarea
        id="import-text"
        ref={textArea}
        className="json-input"
        rows={14}
        value={text}
        onChange={(e) => setText(e.target.value)}
        spellCheck={false}
        {...invalidField(refusal && 'import-refusal')}
      />
      {refusal && <FieldError id="import-refusal">Not opened: {refusal}</FieldError>}
      <div className="actions">
        <button type="button" className="btn" onClick={onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="btn btn-primary" disabled={!text.trim()} onClick={() => void open()}>
          Open
        </button>
      </div>
    </dialog>
  );
}
