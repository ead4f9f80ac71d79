import type { AiModel } from '@gpt/contracts';
import { creditsFor, type Catalog } from './catalog';

/** What 1 000 tokens of the question and of the answer cost in credits with this model, as /model shows it. */
export const creditsPer1000Tokens = (catalog: Catalog, model: AiModel) => ({
  input: creditsFor(catalog, model, { inputTokens: 1000, outputTokens: 0 }),
  output: creditsFor(catalog, model, { inputTokens: 0, outputTokens: 1000 }),
});
