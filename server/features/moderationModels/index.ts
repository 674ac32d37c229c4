export { bestSimilarity, descriptorOf, largestFace, poseVerdict, type PoseVerdict } from './faceMatch.ts';
export {
  type FaceAnalysis,
  type FoundFace,
  type ModerationModels,
  modelsOff,
  type NsfwClasses,
  WorkerModels,
} from './moderationModels.ts';
export { holdScore, matchSimilarity, noMatchSimilarity } from './thresholds.ts';
export { type PhotoScreen, UploadScreening } from './uploadScreening.ts';
