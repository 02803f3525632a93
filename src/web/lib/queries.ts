import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import * as api from './api';
import { concretePath, getBody, type Data, type GetPath, type Operation, type Page, type Params } from './client';
import { useSession } from './session';
import { useToast } from '../components/Toast';

type Opts<T> = Omit<UseQueryOptions<T, api.ApiError>, 'queryKey' | 'queryFn'>;

/**
 * GET of one resource by its documented path, typed from the OpenAPI document; `params` null
 * leaves the read off (e.g. until an id is known). Cached per environment under the concrete
 * path, which `useAction`'s `invalidate` prefixes match.
 */
export function useGet<P extends GetPath>(
  path: P,
  params: Params<Operation<P, 'get'>> | null,
  opts: Opts<Data<P>> = {},
) {
  const { environment } = useSession();
  const p = params as { query?: unknown } | null;
  return useQuery<Data<P>, api.ApiError>({
    queryKey: [environment, concretePath(path, params ?? undefined), p?.query ?? {}],
    queryFn: async ({ signal }) => ((await getBody(path, params!, signal)) as { data: Data<P> }).data,
    ...opts,
    enabled: params !== null && (opts.enabled ?? true),
  });
}

/** GET of a list by its documented path: its items and pagination; the previous page shows meanwhile. */
export function useGetPage<P extends GetPath>(
  path: P,
  params: Params<Operation<P, 'get'>> | null,
  opts: Opts<Page<P>> = {},
) {
  const { environment } = useSession();
  const p = params as { query?: unknown } | null;
  return useQuery<Page<P>, api.ApiError>({
    queryKey: [environment, concretePath(path, params ?? undefined), p?.query ?? {}, 'page'],
    queryFn: async ({ signal }) => {
      const body = (await getBody(path, params!, signal)) as Page<P>;
      return { data: body.data, pagination: body.pagination };
    },
    placeholderData: (prev) => prev,
    ...opts,
    enabled: params !== null && (opts.enabled ?? true),
  });
}

/**
 * A write: shows its outcome as a toast and refreshes the cached reads whose path starts with
 * one of `invalidate`.
 */
export function useAction<I, O>(
  fn: (input: I) => Promise<O>,
  o: { invalidate?: string[]; success?: string | ((out: O) => string); quiet?: boolean } = {},
) {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation<O, api.ApiError, I>({
    mutationFn: fn,
    onSuccess: async (out) => {
      if (o.invalidate?.length) {
        await qc.invalidateQueries({
          predicate: (q) =>
            typeof q.queryKey[1] === 'string' && o.invalidate!.some((p) => (q.queryKey[1] as string).startsWith(p)),
        });
      }
      if (o.success) toast.show(typeof o.success === 'function' ? o.success(out) : o.success, 'success');
    },
    onError: (err) => {
      if (!o.quiet) toast.show(errorText(err), 'error');
    },
  });
}

export function errorText(err: unknown): string {
  if (err instanceof api.ApiError) {
    if (err.code === 'RATE_LIMITED')
      return `Too many requests for this organization's plan; try again in ${err.retryAfter ?? 'a few'} s.`;
    // Field problems the message does not already say (with or without a colon after the field).
    const extra = err.fields.filter(
      (f) => !err.message.includes(`${f.field}: ${f.message}`) && !err.message.includes(`${f.field} ${f.message}`),
    );
    return extra.length ? `${err.message} (${extra.map((f) => `${f.field}: ${f.message}`).join('; ')})` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Marks cached reads under these paths stale (and refetches the ones on screen). */
export function useInvalidate() {
  const qc = useQueryClient();
  return (...prefixes: string[]) =>
    qc.invalidateQueries({
      predicate: (q) =>
        typeof q.queryKey[1] === 'string' && prefixes.some((p) => (q.queryKey[1] as string).startsWith(p)),
    });
}
