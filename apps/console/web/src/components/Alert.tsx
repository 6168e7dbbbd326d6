import type { ShownError } from '../errors';

/**
 * The screen's alert region: always in the page, so screen readers announce what appears in it.
 * The API's message in words, then its code and request id for support.
 */
export function Alert({ error }: { error: ShownError | null }) {
  return (
    <div role="alert" className={error ? 'alert' : 'alert alert-empty'}>
      {error && (
        <>
          <p className="alert-message">{error.message}</p>
          {error.code && (
            <p className="alert-detail">
              Error code {error.code}
              {error.requestId ? `, request ${error.requestId}` : ''}
            </p>
          )}
        </>
      )}
    </div>
  );
}

/** A polite announcement of what just happened ("Saved."). */
export function Status({ message }: { message: string | null }) {
  return (
    <p role="status" className={message ? 'status' : 'status status-empty'}>
      {message}
    </p>
  );
}
