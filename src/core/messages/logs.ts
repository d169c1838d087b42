

export const logsMsg = {
  roundsNeedFormat: () => '--rounds applies to a log read through a log format: add --format NAME|DESCRIPTION.yaml',
  severalTrialsNeedFormat: () => 'several --trials files are read through a log format: add --format NAME|DESCRIPTION.yaml',
};
