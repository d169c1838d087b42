import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/combine-studies.md');
