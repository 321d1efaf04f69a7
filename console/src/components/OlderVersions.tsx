import { useAction } from '../action';
import { NoticeLine } from './NoticeLine';

/**
 * Loads the next page of a base's older versions (see useRecords' `older`)
 * while it has any: the button, and the notice of a page that failed to
 * load, which leaves what is loaded as it was.
 */
export function OlderVersions({ older, small = false }: { older?: (() => Promise<void>) | null; small?: boolean }) {
  const { busy, notice, act } = useAction();
  return (
    <>
      {older && (
        <button type="button" className={small ? 'btn btn-small' : 'btn'} disabled={busy} onClick={() => act(older)}>
          Show older versions
        </button>
      )}
      <NoticeLine notice={notice} />
    </>
  );
}
