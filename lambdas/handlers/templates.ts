// Template endpoints (spec §4.4): the catalogue in lambdas/domain/templates.ts.
import { httpRoute } from '../http/handler';
import { routeById } from '../routes';
import { TEMPLATES, findTemplate } from '../domain/templates';
import { NotFound } from '../errors';

export const listTemplates = httpRoute(routeById('list_templates'), async () =>
  TEMPLATES.map(({ nodes: _nodes, ...item }) => item),
);

export const getTemplate = httpRoute(routeById('get_template'), async ({ params }) => {
  const id = (params as { template_id: string }).template_id;
  const template = findTemplate(id);
  if (!template) throw new NotFound(`Template ${id} not found`);
  return template;
});
