import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/reproduce-a-paper.md');
