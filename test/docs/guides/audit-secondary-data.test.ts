import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/audit-secondary-data.md');
