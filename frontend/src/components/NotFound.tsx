import { notFound } from '../content/site';
import { Icon } from './Icon';
import { StatusPage } from './StatusPage';

export function NotFound() {
  return (
    <StatusPage code={notFound.code} headline={notFound.headline}>
      <p className="status-text">{notFound.text}</p>
      <a className="btn btn-primary" href={notFound.homeLink.href} lang="en">
        {notFound.homeLink.label}
        <Icon name="arrowRight" />
      </a>
    </StatusPage>
  );
}
