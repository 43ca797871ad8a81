/** Server URL written into the committed openapi/openapi.json (the default local address). */
export const COMMITTED_SERVER_URL = 'http://127.0.0.1:8080';
