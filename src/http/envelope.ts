/** Success envelope: `{success, data, message}`; lists add a sibling `pagination` (see paging.ts). */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, data, message };
}

// Reusable JSON-schema fragments for route schemas (also feed the OpenAPI document).
export const schemas = {
  idParam: (name = 'id') => ({
    type: 'object',
    required: [name],
    additionalProperties: false,
    properties: { [name]: { type: 'string', minLength: 1, maxLength: 64 } },
  }),
  envelope: (dataSchema: object = { type: 'object', additionalProperties: true }) => ({
    type: 'object',
    properties: { success: { type: 'boolean' }, data: dataSchema, message: { type: 'string' } },
  }),
};
