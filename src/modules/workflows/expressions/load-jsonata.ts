// JSONata for the modules that parse or evaluate expressions.
import type jsonata from 'jsonata';

// Loaded on first use: 12 MB that a process checking and evaluating no expression never needs.
let jsonataModule: Promise<typeof jsonata> | undefined;

export const loadJsonata = (): Promise<typeof jsonata> => (jsonataModule ??= import('jsonata').then((m) => m.default));
