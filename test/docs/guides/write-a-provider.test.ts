import { guideRuns } from '../../helpers/guides.js';

guideRuns('docs/guides/write-a-provider.md');
