/** Success envelope: `{success, data, message}`; lists add a sibling `pagination` (see paging.ts). */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, data, message };
}

// Reusable JSON-schema fragments for route schemas (also feed the OpenAPI document).
export const schemas = {
  // Literal types (`as const`, the key typed by its name) so a type provider infers `{ [name]: string }`.
  idParam: <N extends string = 'id'>(name: N = 'id' as N) =>
    ({
      type: 'object',
      required: [name],
      additionalProperties: false,
      properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } } as {
        [K in N]: { readonly type: 'string'; readonly minLength: 1; readonly maxLength: 64 };
      },
    }) as const,
  envelope: (dataSchema: object = { type: 'object', additionalProperties: true }) => ({
    type: 'object',
    properties: { success: { type: 'boolean' }, data: dataSchema, message: { type: 'string' } },
  }),
};
