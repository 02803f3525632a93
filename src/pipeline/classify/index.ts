/** Classify stage: document type with a calibrated confidence. */
export { classify, type ClassifyOptions, type ClassificationResult, type ClassificationMethod } from './predict.js';
export {
  trainClassifier,
  modelVersionFor,
  ALGORITHM_VERSION,
  type TrainOptions,
  type TrainingExample,
} from './train.js';
export { evaluate, expectedCalibrationError, type EvaluationReport, type ClassMetrics } from './evaluate.js';
export { loadBuiltinModel, type BuiltinModelOptions } from './builtin.js';
export { trainWithSamples, type ExtendedTrainRequest } from './train-process.js';
export {
  loadSampleSet,
  splitDeterministic,
  stratifiedFolds,
  type LabelledExample,
  type SampleExample,
} from './samples.js';
export { parseModel, serializeModel, MODEL_FORMAT, type ClassifierModel } from './model.js';
export { knnVote, cosineSimilarity, type KnnNeighbour, type KnnOptions } from './knn.js';
export { DEFAULT_RULES, RULES_VERSION, ruleEvidence, type ClassificationRule, type RuleEvidence } from './rules.js';
export { fitTemperature, applyTemperature, nllAt } from './calibrate.js';
export { featureTokens, featureCounts, wordTokens, normalizeText, type TokenizeOptions } from './tokenize.js';
export { classificationText, DEFAULT_MAX_CHARS } from './long-text.js';
