// JSONata for the modules that parse or evaluate expressions.
import type jsonata from 'jsonata';
import { lazy } from '../../../lib/lazy.js';

// Loaded on first use: 12 MB that a process checking and evaluating no expression never needs.
export const loadJsonata: () => Promise<typeof jsonata> = lazy(() => import('jsonata').then((m) => m.default));
