import { useState } from 'react';
import { useTitle } from '../title';
import { invalidField, refusedField } from '../components/FieldError';

export function SignIn({
  busy,
  message,
  onRetry,
  onSubmit,
}: {
  busy: boolean;
  message: string;
  /** Checks the kept key again, when it could not be checked. */
  onRetry?: () => void;
  onSubmit: (key: string) => void;
}) {
  const [key, setKey] = useState('');
  useTitle('Sign in');
  return (
    <main className="signin">
      <form
        className="card signin-card"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) onSubmit(key.trim());
        }}
      >
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            V
          </span>
          Verdict
        </div>
        <h1>Sign in to the console</h1>
        <p className="muted">Use an API key of your organization. It is kept in this browser tab only, until you sign out or close it.</p>
        {message && (
          <div className="alert alert-error" id="signin-message" role="alert">
            {message}
            {onRetry && (
              <div className="alert-actions">
                <button type="button" className="btn btn-small" onClick={onRetry}>
                  Try again
                </button>
              </div>
            )}
          </div>
        )}
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="vdk_…"
          autoFocus
          // Only a refusal of the key typed is about the field; one that could not check it is not.
          {...invalidField(refusedField(message, { 'api-key': /^This API key was not accepted/ }) && 'signin-message')}
        />
        <button type="submit" className="btn btn-primary" disabled={busy || !key.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
