// The audit log records ids: of the actor, and of what an event is about.
// Names for them come from the names events record in their details and
// from the viewer's own user and key; for admins, a member or key that
// nothing else names is looked up on the server by its id, once. An id
// nobody names stays an id.
import { useEffect, useMemo, useState } from 'react';
import type { AuditEventFieldsFragment } from '@verdict/client';
import { useSession } from './session';
import { enumWord } from './format';
import { useLookups, useNameLookup } from './lookups';

type AuditEvent = AuditEventFieldsFragment;

/** What an event is about: the policy, flow or group it names by id, or the member or key its details name. */
export interface Subject {
  kind: 'policy' | 'flow' | 'group' | 'member' | 'key';
  id: string;
}

function details(e: AuditEvent): Record<string, unknown> {
  return e.details !== null && typeof e.details === 'object' ? (e.details as Record<string, unknown>) : {};
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** What an administrative change did, by the `change` its details record. */
const changeWords: Record<string, string> = {
  added: 'Added',
  role: 'Role changed',
  removed: 'Removed',
  created: 'Created',
  revoked: 'Revoked',
};

/**
 * The word for what an event did: its action, or for a member's or key's
 * event, all of which are `edited`, the change its details record, which
 * tells a key made from one revoked.
 */
export function actionWord(e: AuditEvent): string {
  const change = text(details(e).change);
  if (e.action === 'EDITED' && (e.kind === 'MEMBER' || e.kind === 'KEY') && changeWords[change]) return changeWords[change];
  return enumWord(e.action);
}

export function subjectOf(e: AuditEvent): Subject | null {
  if (e.baseId && (e.kind === 'POLICY' || e.kind === 'FLOW')) return { kind: e.kind === 'POLICY' ? 'policy' : 'flow', id: e.baseId };
  if (e.groupId) return { kind: 'group', id: e.groupId };
  const d = details(e);
  if (e.kind === 'MEMBER' && text(d.userId)) return { kind: 'member', id: text(d.userId) };
  if (e.kind === 'KEY' && text(d.keyId)) return { kind: 'key', id: text(d.keyId) };
  return null;
}

/**
 * The names an event's details record, by the id each belongs to: a
 * policy's, flow's or group's when it was created, renamed or deleted, the
 * group a policy or flow joined or left, a member's email, a key's name.
 */
function namesIn(e: AuditEvent): [string, string][] {
  const d = details(e);
  // A rename records the name before and after.
  const renamed = d.name !== null && typeof d.name === 'object' ? text((d.name as Record<string, unknown>).to) : '';
  const name = text(d.name) || renamed;
  const subject = subjectOf(e);
  const found: [string, string][] = [];
  if (subject?.kind === 'member') found.push([subject.id, text(d.email)]);
  else if (subject) found.push([subject.id, name]);
  if (e.groupId && subject?.kind !== 'group') found.push([e.groupId, text(d.group)]);
  return found.filter(([id, n]) => id && n);
}

/** The ids of the users and keys that an event shows: its actor, unless the operator, and the member or key it is about. */
function peopleIn(e: AuditEvent): string[] {
  const subject = subjectOf(e);
  const ids = e.actor.kind === 'OPERATOR' ? [] : [e.actor.id];
  if (subject?.kind === 'member' || subject?.kind === 'key') ids.push(subject.id);
  return ids;
}

/**
 * Names for the ids of the events loaded so far. What the server answers
 * for a member or key, being current, wins over what events recorded;
 * among events, the first loaded (the newest) wins.
 */
export function useAuditNames(events: AuditEvent[] | null): Map<string, string> {
  const { can, viewer } = useSession();
  const [recorded, setRecorded] = useState(() => new Map<string, string>());
  // The names the events now shown record, before they join those recorded earlier.
  const shown = useMemo(() => {
    const names = new Map<string, string>();
    for (const e of events ?? []) for (const [id, name] of namesIn(e)) if (!names.has(id)) names.set(id, name);
    return names;
  }, [events]);

  useEffect(() => {
    setRecorded((known) => {
      const next = new Map(known);
      for (const [id, name] of shown) if (!next.has(id)) next.set(id, name);
      return next;
    });
  }, [shown]);

  const own = useMemo(() => {
    const names = new Map([[viewer.key.id, viewer.key.name]]);
    if (viewer.user) names.set(viewer.user.id, viewer.user.email);
    return names;
  }, [viewer]);

  // Only admins may look members and keys up; a lookup that fails leaves its id unnamed.
  const unnamed = can.admin ? (events ?? []).flatMap(peopleIn).filter((id) => !recorded.has(id) && !shown.has(id) && !own.has(id)) : [];
  const lookUpName = useNameLookup();
  const lookedUp = useLookups(unnamed, lookUpName);

  return useMemo(() => {
    const found = [...lookedUp].filter((entry): entry is [string, string] => entry[1] !== null);
    return new Map([...shown, ...recorded, ...found, ...own]);
  }, [shown, recorded, lookedUp, own]);
}
