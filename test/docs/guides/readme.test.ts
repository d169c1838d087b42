import { guideRuns } from '../../helpers/guides.js';

guideRuns('README.md');
