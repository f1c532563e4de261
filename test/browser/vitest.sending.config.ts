import { browserTier, SENDING_AS_A_PERSON } from './tier.ts';

export default browserTier('browser-sending', { include: SENDING_AS_A_PERSON });
