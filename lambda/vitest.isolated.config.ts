import { lambdaProject } from './vitest.config.ts';

export default lambdaProject('isolated');
