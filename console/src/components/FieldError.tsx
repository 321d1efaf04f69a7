// A field with an error says so to assistive technology as well as on the
// screen: it is marked invalid and described by the element that holds the
// error's text, and is neither once the error is gone.
import type { ReactNode } from 'react';
import type { Notice } from '../action';

/** What a field with an error carries; nothing while it has none. */
export type InvalidAttributes = { 'aria-invalid'?: 'true'; 'aria-describedby'?: string };

/**
 * The attributes of a field whose error, if any, is shown in the element
 * errorId (null, false or '' for no error); `described` are the ids of what
 * describes the field at all times (a hint), kept after the error's.
 */
export function invalidField(errorId: string | false | null | undefined, ...described: string[]): InvalidAttributes {
  const ids = [errorId, ...described].filter(Boolean).join(' ');
  return { ...(errorId ? { 'aria-invalid': 'true' } : {}), ...(ids ? { 'aria-describedby': ids } : {}) };
}

/**
 * The field of a form a refusal is about, by its words: the server's
 * messages name the field first ("name is required", "mask path … must
 * start with $."), and the form's own checks name it too. fields maps each
 * field's id to the words of a refusal about it; null for a notice that is
 * no refusal, or one about none of the fields.
 */
export function refusedField(refusal: Notice | string | null, fields: Record<string, RegExp>): string | null {
  const text = typeof refusal === 'string' ? refusal : refusal?.kind === 'error' ? refusal.text : '';
  if (!text) return null;
  return Object.keys(fields).find((id) => fields[id]!.test(text)) ?? null;
}

/**
 * An error under its field, which names it by id (see invalidField): an
 * alert for one a submit found, a status for one that follows typing.
 */
export function FieldError({ id, live = 'alert', children }: { id: string; live?: 'alert' | 'status'; children: ReactNode }) {
  return (
    <p className="field-error" id={id} role={live}>
      {children}
    </p>
  );
}
