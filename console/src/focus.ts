// Focus that leaves a control when it is disabled while its action runs,
// or removed with the dialog or the row it was in, falls to the page's
// body, and a keyboard user starts again from the top. These put it back.
import { useEffect, useState } from 'react';
import type { RefObject } from 'react';

// The element focused last: a button disabled while its action runs has
// lost focus by the time a dialog it opens asks who opened it.
let lastFocused: HTMLElement | null = null;
document.addEventListener('focusin', (e) => {
  if (e.target instanceof HTMLElement) lastFocused = e.target;
});

/** The control that has focus, or that had it last when focus fell to the body. */
export function focusedControl(): HTMLElement | null {
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : lastFocused;
}

function focusLost(): boolean {
  return !document.activeElement || document.activeElement === document.body;
}

// How long focus is watched: while it stays where it was (on a control
// about to be removed), and while the target is disabled (its action runs).
const stillThere = 2_000;
const stillDisabled = 15_000;
// How long a button an action takes away is watched: until its list is read again.
const stillListed = 15_000;

function focusMain(): void {
  document.getElementById('main')?.focus({ preventScroll: true });
}

/**
 * Gives focus back to target once focus is lost, on the body: never taking
 * it from where it went since (a dialog, a field that focuses itself, a
 * click elsewhere). A target that is disabled, as a button is while its
 * action runs, is waited for; one that is gone or hidden (the action moved
 * to another page, removed its row) leaves focus to the page's main
 * region, from whose top Tab goes on. A function target is asked again
 * each frame, for a control drawn after this call.
 */
export function returnFocus(target: HTMLElement | null | (() => HTMLElement | null | undefined)): void {
  const from = document.activeElement;
  const start = performance.now();
  const step = () => {
    const waited = performance.now() - start;
    if (!focusLost()) {
      if (document.activeElement === from && waited < stillThere) requestAnimationFrame(step);
      return;
    }
    const el = typeof target === 'function' ? target() : target;
    if (el?.isConnected && (el as HTMLButtonElement).disabled && waited < stillDisabled) {
      requestAnimationFrame(step);
      return;
    }
    el?.focus();
    if (focusLost()) focusMain();
  };
  requestAnimationFrame(step);
}

/**
 * For a button of a table's rows that an action takes away, with its row
 * or from it, as the list is read again: if focus leaves with it, it goes
 * to the button that takes its place among the rows, or to the one before,
 * or else to the page's main region. Asked for as the action starts, before
 * a dialog that asked for it closes: the dialog gives focus back to that
 * button, which is gone only once the list is read again.
 */
export function focusNextWhenGone(button: HTMLElement): void {
  const table = button.closest('table');
  const buttons = () => Array.from(table?.querySelectorAll<HTMLElement>('tbody button') ?? []);
  const at = buttons().indexOf(button);
  const start = performance.now();
  const step = () => {
    if (button.isConnected) {
      if (performance.now() - start < stillListed) requestAnimationFrame(step);
      return;
    }
    if (!focusLost()) return;
    const left = buttons();
    (left[at] ?? left[at - 1])?.focus();
    if (focusLost()) focusMain();
  };
  requestAnimationFrame(step);
}

/**
 * Shows the dialog ref holds as a modal while the component is mounted.
 * Once it is gone, focus returns to the control that had it when the
 * dialog opened, or goes on as returnFocus says when that one is gone.
 */
export function useModal(ref: RefObject<HTMLDialogElement | null>): void {
  const [opener] = useState(focusedControl);
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    return () => {
      d.close();
      returnFocus(opener);
    };
  }, [ref, opener]);
}
