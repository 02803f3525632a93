// The dashboard's typed client: openapi-fetch over the types generated from the OpenAPI document
// (src/api/types.ts). Paths, parameters, bodies and answers come from the document, so a change
// to a route's schemas fails the dashboard's typecheck instead of a page at run time. Session
// handling (token, environment, refresh, ApiError) is api.ts's `authedFetch`.
import createClient from 'openapi-fetch';
import type { components, paths } from '../../api/types';
import { authedFetch, queryString, upload, type Query } from './api';

export type { paths };
/** The API's named schemas: `Schemas['Document']`, `Schemas['Project']`, … */
export type Schemas = components['schemas'];

export const client = createClient<paths>({
  fetch: authedFetch,
  // The API reads a list as one comma-separated value (openapi-fetch would repeat the key).
  querySerializer: (q) => queryString(q as Query),
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** The paths that answer GET. */
export type GetPath = { [P in keyof paths]: [Operation<P, 'get'>] extends [never] ? never : P }[keyof paths];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON body of an operation's 2xx answers. */
export type Success<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : never }[keyof R]
  : never;
/** What a request names besides its path: `{ path?, query? }` as the document has them. */
export type Params<O> = O extends { parameters: infer X } ? Omit<X, 'header' | 'cookie'> : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The `data` of GET `P`'s answer. */
export type Data<P extends GetPath> = Success<Operation<P, 'get'>> extends { data: infer D } ? D : never;
/** One item of list `P` (`GET /api/v1/documents` → a document). */
export type Item<P extends GetPath> = Data<P> extends (infer I)[] ? I : never;
/** A list answer: its items and its pagination. */
export interface Page<P extends GetPath> {
  data: Item<P>[];
  pagination: Success<Operation<P, 'get'>> extends { pagination: infer X } ? X : never;
}

/**
 * The `data` of a call's answer. The client's fetch throws on every non-2xx answer, so what comes
 * back is a success body (undefined for an answer without one).
 */
export async function ok<B>(call: Promise<{ data?: B }>): Promise<B extends { data: infer D } ? D : undefined> {
  const body = (await call).data as { data?: unknown } | undefined;
  return body?.data as B extends { data: infer D } ? D : undefined;
}

// The hooks take a path as a type parameter, which openapi-fetch's overloads cannot check
// generically; their own signatures carry the types, and this view of the client is the bridge.
const byPath = client as unknown as {
  GET(path: string, init: { params: unknown; signal?: AbortSignal }): Promise<{ data?: unknown }>;
};

/** GET `path` with its parameters; the whole success body. */
export async function getBody<P extends GetPath>(
  path: P,
  params: Params<Operation<P, 'get'>>,
  signal?: AbortSignal,
): Promise<Success<Operation<P, 'get'>>> {
  return (await byPath.GET(path, { params, signal })).data as Success<Operation<P, 'get'>>;
}

/** `/api/v1/documents/{id}` with `{ id: 'doc_1' }` → `/documents/doc_1`: the cache key of a read. */
export function concretePath(path: string, params?: { path?: unknown }): string {
  const values = (params?.path ?? {}) as Record<string, string | number>;
  return path
    .replace(/^\/api\/v1/, '')
    .replace(/\{([^}]+)\}/g, (_, k: string) => encodeURIComponent(String(values[k] ?? '')));
}

/**
 * A list that names every member of union `U`: `allOf<U>()(['a', 'b'])` fails to compile while
 * a member of `U` is missing from the list (the error names it as `missing`) or the list holds
 * a value outside `U`, so a value the API adds to an enum fails where the dashboard lists them.
 * (A `satisfies` clause cannot do this: its type cannot refer to the list being checked.)
 */
export function allOf<U extends string>() {
  return <const L extends readonly U[]>(
    list: L & ([Exclude<U, L[number]>] extends [never] ? unknown : { missing: Exclude<U, L[number]> }),
  ): L => list;
}

/** `value` when it is one of `allowed` (e.g. a filter read from the address bar), else undefined. */
export function oneOf<T extends string>(allowed: readonly T[], value: string | null | undefined): T | undefined {
  return allowed.find((a) => a === value);
}

export type UploadedDocument = Success<Operation<'/api/v1/documents', 'post'>>['data'];
/**
 * POST /documents with a file, reporting progress (multipart through XMLHttpRequest, which
 * openapi-fetch cannot do); the answer is the document as the upload's schema describes it.
 */
export async function uploadDocument(
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<UploadedDocument> {
  return (await upload('/documents', form, onProgress, signal)) as UploadedDocument;
}
