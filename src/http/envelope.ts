/** Success envelope: `{success, data, message}`; lists add a sibling `pagination`. */
export function ok<T>(data: T, message = 'OK') {
  return { success: true as const, data, message };
}

export function offsetPage<T>(items: T[], total: number, limit: number, offset: number, message = 'OK') {
  return {
    success: true as const,
    data: items,
    pagination: { total, limit, offset, has_more: offset + items.length < total },
    message,
  };
}

export function numberedPage<T>(items: T[], total: number, page: number, perPage: number, message = 'OK') {
  return {
    success: true as const,
    data: items,
    pagination: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
    message,
  };
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
