/**
 * What a flow run ended on, as the page shows it: an outcome (the text of
 * the custom node the run ended on) in quotes, as it is written, else the
 * result, true or false. An outcome is text, never shown as JSON, whose
 * escapes ("\"") would read as part of it.
 */
export function answerWords(answer: string | boolean): string {
  return typeof answer === 'string' ? `“${answer}”` : String(answer);
}
