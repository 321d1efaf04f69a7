// What could not reach the server tries again by itself: a page (or a part
// of one) that says the server cannot be reached waits here, and is asked
// to load again after 1 s, then 2, 4, … up to 30 s between tries, and at
// once when the window gets the focus back or the browser says it is
// online again. Nothing waits, and no timer runs, while every page is
// fine; the first answer from the server starts the delays again at 1 s.
import { useEffect, useRef, useState } from 'react';

export const FIRST_RETRY_MS = 1000;
export const LAST_RETRY_MS = 30_000;

const waiting = new Set<() => void>();
let delay = FIRST_RETRY_MS;
let timer: number | undefined;

function schedule() {
  if (timer !== undefined || waiting.size === 0) return;
  timer = window.setTimeout(() => {
    timer = undefined;
    delay = Math.min(delay * 2, LAST_RETRY_MS);
    retryAll();
  }, delay);
}

function stop() {
  if (timer === undefined) return;
  window.clearTimeout(timer);
  timer = undefined;
}

/** Asks everything waiting to load again; what fails again waits again. */
function retryAll() {
  stop();
  for (const retry of [...waiting]) retry();
  schedule();
}

function now() {
  if (waiting.size > 0) retryAll();
}

window.addEventListener('online', now);
window.addEventListener('focus', now);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') now();
});

/** The server answered (with data or an error of its own): the next wait is the shortest again. */
export function serverAnswered(): void {
  delay = FIRST_RETRY_MS;
}

/**
 * Waits for the server: `retry` is called on each try until the returned
 * function is called, which a caller does once it loads again (or shows
 * something else).
 */
export function whenReachable(retry: () => void): () => void {
  const entry = () => retry();
  waiting.add(entry);
  schedule();
  return () => {
    waiting.delete(entry);
    if (waiting.size === 0) stop();
  };
}

/**
 * Calls `retry` on each try (see whenReachable) while `unreachable`: while
 * what the caller shows says the server could not be reached (see
 * saysUnreachable), and never otherwise.
 */
export function useRetryWhileUnreachable(unreachable: boolean, retry: () => void): void {
  const latest = useRef(retry);
  useEffect(() => {
    latest.current = retry;
  });
  useEffect(() => (unreachable ? whenReachable(() => latest.current()) : undefined), [unreachable]);
}

/**
 * The tries of a load an effect makes: `attempt` goes up on each try while
 * `unreachable` (see useRetryWhileUnreachable), for the effect to depend
 * on, and `trying()`, asked once in each run of the effect, says whether
 * the run is such a try. A try leaves the page's message up until it is
 * answered, rather than taking it down and saying it again each time.
 */
export function useTries(unreachable: boolean): { attempt: number; trying: () => boolean } {
  const [attempt, setAttempt] = useState(0);
  useRetryWhileUnreachable(unreachable, () => setAttempt((a) => a + 1));
  const ran = useRef(0);
  const trying = () => {
    const was = ran.current;
    ran.current = attempt;
    return was !== attempt;
  };
  return { attempt, trying };
}
