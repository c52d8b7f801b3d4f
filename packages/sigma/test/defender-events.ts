/**
 * Windows Defender operational events (Microsoft-Windows-Windows Defender/Operational) as Windows
 * writes their event data, with spaces in the names (`Threat Name`), for the tests of spaced field
 * names (spaced-fields.test.ts, and the engine's Sigma import test).
 */
export const CHANNEL = 'Microsoft-Windows-Windows Defender/Operational';

/** A Defender 1116 (malware detected) by AMSI, its event data as Windows writes it. */
export const amsiDetection: Record<string, unknown> = {
  'Product Name': 'Microsoft Defender Antivirus',
  'Product Version': '4.18.24090.11',
  'Detection ID': '{5C8D5F56-33C4-4B9E-9B7F-0C4F0A3D2E11}',
  'Detection Time': '2025-11-03T09:14:27.512Z',
  'Threat ID': '2147725413',
  'Threat Name': 'Trojan:PowerShell/Mikatz.A',
  'Severity ID': '5',
  'Severity Name': 'Severe',
  'Category ID': '8',
  'Category Name': 'Trojan',
  FWLink: 'https://go.microsoft.com/fwlink/?linkid=37020&name=Trojan:PowerShell/Mikatz.A&threatid=2147725413',
  'Status Code': '1',
  'Source ID': '11',
  'Source Name': 'AMSI',
  'Process Name': 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  'Detection User': 'WS01\\alice',
  Path: 'amsi:_C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  'Origin ID': '1',
  'Origin Name': 'Local machine',
  'Action ID': '9',
  'Action Name': 'Not Applicable',
  'Error Code': '0x00000000',
  'Error Description': 'The operation completed successfully. ',
  'Security intelligence Version': 'AV: 1.421.123.0, AS: 1.421.123.0, NIS: 1.421.123.0',
  'Engine Version': 'AM: 1.1.24090.11, NIS: 1.1.24090.11',
};

/** A Defender 1119 (remediation failed) of the RedSun exploit's EICAR file. */
export const redSunFailure: Record<string, unknown> = {
  'Product Name': 'Microsoft Defender Antivirus',
  'Threat Name': 'Virus:DOS/EICAR_Test_File',
  'Source ID': '3',
  'Source Name': 'Real-Time Protection',
  'Process Name': 'C:\\Users\\bob\\Downloads\\RedSun.exe',
  Path: 'file:_C:\\Users\\bob\\AppData\\Local\\Temp\\4\\RS-{8E0A6C1B-2F4D-4B7E-9C3A-5D1F0E2B7A64}\\TieringEngineService.exe',
  'Action Name': 'Quarantine',
  'Error Code': '0x80508023',
};

/** Event data with the spaces removed from its names (the spelling Sigma rules use). */
export const withoutSpaces = (data: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k.replace(/ /g, ''), v]));

/** The event as evtx_dump writes it (evtx-json) or as Winlogbeat ships it. */
export function defenderEvent(
  shape: 'evtx-json' | 'winlogbeat',
  eventId: number,
  data: Record<string, unknown>,
): unknown {
  if (shape === 'winlogbeat') {
    return {
      '@timestamp': '2025-11-03T09:14:27.512Z',
      winlog: {
        channel: CHANNEL,
        event_id: eventId,
        provider_name: 'Microsoft-Windows-Windows Defender',
        computer_name: 'WS01',
        event_data: data,
      },
    };
  }
  return {
    Event: {
      System: {
        Provider: {
          '#attributes': { Name: 'Microsoft-Windows-Windows Defender', Guid: '11CD958A-C507-4EF3-B3F2-5FD9DFBD2C78' },
        },
        EventID: eventId,
        Level: 3,
        Channel: CHANNEL,
        Computer: 'WS01',
      },
      EventData: data,
    },
  };
}
