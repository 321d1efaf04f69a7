import { Link } from '../router';
import { useTitle } from '../title';

/** A page that could not be loaded: why, and the way back to its list. */
export function LoadFailure({ error, back }: { error: string; back?: { to: string; text: string } }) {
  useTitle('Could not load the page');
  return (
    <div className="page">
      <p className="alert alert-error" role="alert">
        {error}
      </p>
      {back && <Link to={back.to}>{back.text}</Link>}
    </div>
  );
}
