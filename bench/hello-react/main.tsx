// The React-only page: React 19 + react-dom hydrating a trivial prerendered tree and nothing
// else. Any site built with React ships and runs at least this, so it is the floor for the
// site's first-load JavaScript and for its longest task after the first paint.
import { hydrateRoot } from 'react-dom/client';
import { Hello } from './Hello';

hydrateRoot(document.getElementById('root')!, <Hello />);
