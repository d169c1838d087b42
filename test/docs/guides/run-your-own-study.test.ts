import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/run-your-own-study.md');
