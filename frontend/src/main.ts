import './styles/index.css';
import { start } from './boot';

// The app's entry: in the built page the loader (src/loader.ts) imports it once the page has
// painted; the dev server loads it at once.
start();
