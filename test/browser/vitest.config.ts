import { browserTier, SENDING_AS_A_PERSON } from './tier.ts';

export default browserTier('browser', { include: ['*.test.ts'], exclude: SENDING_AS_A_PERSON });
