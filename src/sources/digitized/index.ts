/** WebPlotDigitizer projects as an input kind: the reader, its result, and the pixel maps. */
export { readDigitized, DIGITIZED_KIND, type DigitizedInput, type DigitizedPoint, type ClickShift, type ReadDigitizedOptions } from './read.js';
export { PROJECT_LIMITS, type ProjectImage } from './load.js';
export { valueAt, valueDirection, barCalibration, xyCalibration, xyData, xyPixel, barPixel, offAxis, type Calibration, type Pixel } from './calibration.js';
