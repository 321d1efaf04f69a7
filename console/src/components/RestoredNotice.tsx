/**
 * Says that unsaved edits kept from earlier in the session came back; when
 * the record was saved elsewhere since (its revision is now, theirs began),
 * that their save will be refused.
 */
export function RestoredNotice({ began, now }: { began: number; now: number | undefined }) {
  return (
    <p className="alert alert-info" role="status">
      {now !== undefined && now !== began
        ? `Unsaved changes from this session were restored, but the draft was saved elsewhere since (revision ${now}; these began from revision ${began}): saving them will be refused. Copy what you need, then load the saved draft.`
        : 'Unsaved changes from this session were restored.'}
    </p>
  );
}
