// Who is signed in and what their key lets them do. The server decides every
// request; the console only hides or disables what would be refused.
import { createContext, useContext } from 'react';
import type { ViewerQuery } from '@verdict/client';
import type { Api } from './api';
import type { StoredOwner } from './sessionStore';

export type Viewer = ViewerQuery['viewer'];
export type AuthoringRole = 'VIEWER' | 'EDITOR' | 'PUBLISHER' | 'ADMIN';
export type EffectiveRole = AuthoringRole | 'AUDITOR';

const rank: Record<AuthoringRole, number> = { VIEWER: 1, EDITOR: 2, PUBLISHER: 3, ADMIN: 4 };
const scopeRole: Record<Viewer['key']['scope'], AuthoringRole> = {
  VIEW: 'VIEWER',
  EDIT: 'EDITOR',
  PUBLISH: 'PUBLISHER',
  ADMIN: 'ADMIN',
};

/**
 * The role a request acts with: an auditor stays an auditor, an
 * organization key acts as its scope, and a user key's scope caps its
 * owner's role.
 */
export function effectiveRole(v: Viewer): EffectiveRole {
  if (v.role === 'AUDITOR') return 'AUDITOR';
  const capped = scopeRole[v.key.scope];
  if (v.key.owner.kind === 'ORGANIZATION') return capped;
  return rank[v.role] <= rank[capped] ? v.role : capped;
}

/**
 * Who the signed-in viewer is, for what the tab keeps of their work: a user
 * in an organization, whichever of their keys they sign in with, or an
 * organization key itself.
 */
export function viewerIdentity(v: Viewer): StoredOwner {
  return v.user ? { organization: v.organization.id, user: v.user.id } : { organization: v.organization.id, key: v.key.id };
}

export interface Capabilities {
  view: boolean;
  run: boolean;
  edit: boolean;
  publish: boolean;
  delete: boolean;
  readAudit: boolean;
  admin: boolean;
}

export function capabilities(role: EffectiveRole): Capabilities {
  if (role === 'AUDITOR') {
    return { view: true, run: false, edit: false, publish: false, delete: false, readAudit: true, admin: false };
  }
  const r = rank[role];
  return {
    view: true,
    run: true,
    edit: r >= rank.EDITOR,
    publish: r >= rank.PUBLISHER,
    delete: r >= rank.ADMIN,
    readAudit: r >= rank.ADMIN,
    admin: r >= rank.ADMIN,
  };
}

export interface Session {
  api: Api;
  /** The signed-in key, for the playground link, which opens with it. */
  apiKey: string;
  viewer: Viewer;
  role: EffectiveRole;
  can: Capabilities;
  signOut: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a signed-in console');
  return s;
}

/** A base a draft that was never published belongs to its creator; admins may change any. */
export function mayChange(s: Session, owner: { kind: string; id: string }): boolean {
  if (s.role === 'ADMIN') return true;
  return owner.kind === 'ORGANIZATION' || owner.id === s.viewer.user?.id || owner.id === s.viewer.organization.id;
}

/** How an owner or author reads in a table. */
export function ownerLabel(s: Session, owner: { kind: string; id: string }): string {
  if (owner.kind === 'ORGANIZATION') return 'Organization';
  if (owner.id === s.viewer.user?.id) return 'You';
  return `User ${owner.id.slice(-6)}`;
}

export function authorLabel(s: Session, id: string): string {
  if (id === s.viewer.user?.id) return s.viewer.user.email;
  // What an organization key creates names the key as its author.
  if (id === s.viewer.key.id) return `Organization key “${s.viewer.key.name}”`;
  if (id === s.viewer.organization.id) return 'Organization key';
  return `User ${id.slice(-6)}`;
}

/**
 * What the signed-in user may do with a record, or with one not created yet
 * (null), which is theirs: change it while it is a draft, and publish it
 * once it exists. What an organization key creates belongs to the
 * organization, as the server records it.
 */
export function recordRights(s: Session, record: { status: string; owner: { kind: string; id: string } } | null) {
  const isDraft = !record || record.status === 'DRAFT';
  const owner =
    record?.owner ?? (s.viewer.user ? { kind: 'USER', id: s.viewer.user.id } : { kind: 'ORGANIZATION', id: s.viewer.organization.id });
  const editable = isDraft && s.can.edit && mayChange(s, owner);
  const publishable = !!record && isDraft && s.can.publish && mayChange(s, owner);
  return { isDraft, editable, publishable };
}
