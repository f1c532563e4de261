import { errorScreen } from '../content/site';
import { Icon } from './Icon';
import { StatusPage } from './StatusPage';

/** An HTTP-like failure (a Response, or anything shaped like one) carries a status and its text. */
interface StatusError {
  status: number;
  statusText: string;
}

function isStatusError(error: unknown): error is StatusError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as StatusError).status === 'number' &&
    typeof (error as StatusError).statusText === 'string'
  );
}

/** Spec: the status and its text, or else the message. */
export function errorDetail(error: unknown): string {
  if (isStatusError(error)) return `${error.status} ${error.statusText}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorScreen({ error }: { error: unknown }) {
  return (
    <StatusPage code={<Icon name="error" className="status-icon" />} headline={errorScreen.headline}>
      <p className="status-detail" lang="en">
        <code>{errorDetail(error)}</code>
      </p>
      <a className="btn btn-primary" href={errorScreen.homeLink.href} lang="en">
        {errorScreen.homeLink.label}
        <Icon name="arrowRight" />
      </a>
    </StatusPage>
  );
}
