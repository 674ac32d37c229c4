export { cityForReader, storedCity } from './places.ts';
