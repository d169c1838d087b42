import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/reanalyse-a-published-log.md');
