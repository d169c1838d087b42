import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/tables-and-figures-for-a-paper.md');
