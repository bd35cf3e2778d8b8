/* global window, SwaggerUIBundle */
// The API reference: Swagger UI over the mock's copy of the spec, whose first server is this mock's /v1,
// so "Try it out" calls the mock. No validator badge (it would call an outside service).
window.ui = SwaggerUIBundle({
  url: '/_mock/docs/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  docExpansion: 'list',
  displayOperationId: true,
  showExtensions: true,
});
