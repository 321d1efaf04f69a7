// The audit log records ids: of the actor, and of what an event is about.
// Names for them come from what the console has without asking the server
// for more: the names events record in their details, and, for admins, the
// members and keys lists. An id nobody names stays an id.
import { useEffect, useMemo, useState } from 'react';
import { KeysDocument, MembersDocument } from '@verdict/client';
import type { AuditEventFieldsFragment } from '@verdict/client';
import { useSession } from './session';

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

/**
 * Names for the ids of the events loaded so far. The members and keys
 * lists, being current, win over what events recorded; among events, the
 * first loaded (the newest) wins.
 */
export function useAuditNames(events: AuditEvent[] | null): Map<string, string> {
  const { api, can, viewer } = useSession();
  const [recorded, setRecorded] = useState(() => new Map<string, string>());
  const [listed, setListed] = useState(() => new Map<string, string>());

  useEffect(() => {
    if (!events) return;
    setRecorded((known) => {
      const next = new Map(known);
      for (const e of events) for (const [id, name] of namesIn(e)) if (!next.has(id)) next.set(id, name);
      return next;
    });
  }, [events]);

  // Only admins may list members and keys; a list that fails leaves its ids unnamed.
  useEffect(() => {
    if (!can.admin) return;
    let live = true;
    const add = (found: [string, string][]) => live && setListed((known) => new Map([...known, ...found]));
    api.request(MembersDocument, { first: 200 }).then(
      (r) => add(r.members.edges.map((e) => [e.node.user.id, e.node.user.email])),
      () => undefined,
    );
    api.request(KeysDocument, { first: 200 }).then(
      (r) => add(r.keys.edges.map((e) => [e.node.id, e.node.name])),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, can.admin]);

  return useMemo(() => {
    const own: [string, string][] = [[viewer.key.id, viewer.key.name]];
    if (viewer.user) own.push([viewer.user.id, viewer.user.email]);
    return new Map([...recorded, ...listed, ...own]);
  }, [recorded, listed, viewer]);
}
