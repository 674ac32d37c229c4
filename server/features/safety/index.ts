export { reportWeights } from './reportEvidence.ts';
export { evidenceWeight } from './repository.ts';
