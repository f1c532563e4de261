import 'virtual:typeface.css';
import './styles/index.css';
import { start } from './boot';

// The app's entry: in the built page the loader (src/loader.ts) imports it once the page has
// painted; the dev server loads it at once. Hydration starts in a task of its own: with the
// evaluation of the bundle (React's start-up) it would be one long task.
setTimeout(start);
