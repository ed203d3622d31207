import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as createTemplate } from './create-template.ts';
import { handler as listTemplates } from './list-templates.ts';
import { handler as getTemplate } from './get-template.ts';
import { handler as updateTemplate } from './update-template.ts';
import { handler as deleteTemplate } from './delete-template.ts';
import { handler as publishTemplate } from './publish-template.ts';
import { handler as duplicateTemplate } from './duplicate-template.ts';

/** The templates Lambda. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('templates', {
    'create-template': createTemplate,
    'list-templates': listTemplates,
    'get-template': getTemplate,
    'update-template': updateTemplate,
    'delete-template': deleteTemplate,
    'publish-template': publishTemplate,
    'duplicate-template': duplicateTemplate,
  }),
);
