import { frontendProject } from './vitest.config.ts';

export default frontendProject('isolated');
