// The floor for first-load JavaScript: React 19 + react-dom and nothing else. Any site
// built with React ships at least this, so the site's JS is reported as a multiple of it.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<h1>Hello, world</h1>);
