import { firstSentence } from '../../../pipeline/summarize/index.js';
import type { StageCompute } from '../stage-runner.js';

/** Scratch stage (recipe check): keeps the text's first sentence as the stage's note. */
export function summarizeStage(): StageCompute {
  return async (doc) => ({ cols: {}, note: firstSentence(doc.text_content ?? '') || undefined });
}
