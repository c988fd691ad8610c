/**
 * @module
 * The PowerShell/CIM scripts of the Windows adapter.
 *
 * Every script is a constant: the service name, `force` and the timeout reach it only through
 * environment variables (`LOOM_SERVICE_NAME`, `LOOM_FORCE`, `LOOM_TIMEOUT_MS`), so no caller's
 * string is ever parsed as PowerShell (csi-proxy's approach, §3.2). The only place the name meets
 * another language is WQL (the `Get-CimInstance` filter and the `ASSOCIATORS OF` object path),
 * where it is escaped as a WQL string literal, after validation already limited it to
 * `[A-Za-z0-9 :_.@$#+-]`.
 *
 * Each script prints exactly one JSON object on its last line: `{"ok":true,…}` or
 * `{"ok":false,"kind":…,"message":"…","code":N}`, where `kind` is one of "not_found",
 * "dependents_running", "precondition_failed", "timeout", "win32", "permission_denied" and "command_failed".
 * The scripts are sent with `-EncodedCommand` (base64 UTF-16LE), which sidesteps Windows
 * command-line quoting altogether.
 */

const PRELUDE =
  String.raw`
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'
function Out-Result($value) { $value | ConvertTo-Json -Compress -Depth 4 }
function ConvertTo-WqlString([string]$value) { $value.Replace('\', '\\').Replace("'", "\'") }
function Get-LoomService([string]$name) {
  Get-CimInstance -ClassName Win32_Service -Filter ("Name = '" + (ConvertTo-WqlString $name) + "'")
}
function Get-LoomDependents([string]$name) {
  # Role = Antecedent: the given service is the one depended upon, so the results depend on it.
  $query = "ASSOCIATORS OF {Win32_Service.Name='" + (ConvertTo-WqlString $name) + "'} ` +
  `WHERE AssocClass = Win32_DependentService Role = Antecedent"
  @(Get-CimInstance -Query $query)
}
function Wait-LoomState([string]$name, [string]$state, [int]$timeoutMs) {
  $deadline = [DateTime]::UtcNow.AddMilliseconds($timeoutMs)
  while ($true) {
    $current = Get-LoomService $name
    if ($null -ne $current -and $current.State -eq $state) { return $true }
    if ([DateTime]::UtcNow -ge $deadline) { return $false }
    Start-Sleep -Milliseconds 200
  }
}
function Out-NotFound([string]$name) {
  Out-Result @{ ok = $false; kind = 'not_found'; message = ('service {0} does not exist' -f $name) }
}
`;

function wrap(body: string): string {
  return `${PRELUDE}
try {
${body}
} catch {
  $e = $_.Exception
  $kind = 'command_failed'
  if ($e -is [System.UnauthorizedAccessException] -or $e.Message -match 'Access (is )?denied') { $kind = 'permission_denied' }
  Out-Result @{ ok = $false; kind = $kind; message = $e.Message }
}
`;
}

/** Win32_BIOS.SerialNumber (what `Get-CimInstance Win32_BIOS` and csi-proxy's WMI query report). */
export const BIOS_SERIAL_SCRIPT = wrap(`
  $bios = Get-CimInstance -ClassName Win32_BIOS | Select-Object -First 1
  Out-Result @{ ok = $true; serialNumber = [string]$bios.SerialNumber }
`);

/** Win32_Service DisplayName, State, StartMode of `$env:LOOM_SERVICE_NAME`. */
export const GET_SERVICE_SCRIPT = wrap(`
  $name = $env:LOOM_SERVICE_NAME
  $svc = Get-LoomService $name
  if ($null -eq $svc) { Out-NotFound $name; return }
  Out-Result @{ ok = $true; displayName = [string]$svc.DisplayName; state = [string]$svc.State; startMode = [string]$svc.StartMode }
`);

/** Win32_Service.StartService(), then wait until State is Running (return 10 = already running). */
export const START_SERVICE_SCRIPT = wrap(
  `
  $name = $env:LOOM_SERVICE_NAME
  $svc = Get-LoomService $name
  if ($null -eq $svc) { Out-NotFound $name; return }
  if ($svc.State -eq 'Running') { Out-Result @{ ok = $true; changed = $false }; return }
  if ($svc.StartMode -eq 'Disabled') {
    Out-Result @{ ok = $false; kind = 'precondition_failed'; message = ('service {0} is disabled and cannot be started' -f $name) }
    return
  }
  $rv = [int](Invoke-CimMethod -InputObject $svc -MethodName StartService).ReturnValue
  if ($rv -ne 0 -and $rv -ne 10) { Out-Result @{ ok = $false; kind = 'win32'; code = $rv; service = $name }; return }
  if (-not (Wait-LoomState $name 'Running' ([int]$env:LOOM_TIMEOUT_MS))) {
    Out-Result @{ ok = $false; kind = 'timeout'; ` +
    `message = ('timed out after {0} ms waiting for service {1} to become running' -f $env:LOOM_TIMEOUT_MS, $name) }
    return
  }
  Out-Result @{ ok = $true; changed = $true }
`,
);

/**
 * Win32_Service.StopService(). Running dependents are found through Win32_DependentService
 * (`ASSOCIATORS OF … Role = Antecedent`); without force they are reported, with force they are
 * stopped first, in dependents-first order: a depth-first walk that lists a service only after
 * every running service that depends on it (post-order). For A <- B <- C that is C, B, then A;
 * where dependents also depend on one another (A <- B, A <- C, C <- B) it is B, C, then A, where
 * a reversed breadth-first list (csi-proxy's) could stop C while B, which needs it, still runs.
 */
export const STOP_SERVICE_SCRIPT = wrap(
  `
  $name = $env:LOOM_SERVICE_NAME
  $force = $env:LOOM_FORCE -eq 'true'
  $timeoutMs = [int]$env:LOOM_TIMEOUT_MS
  $svc = Get-LoomService $name
  if ($null -eq $svc) { Out-NotFound $name; return }
  if ($svc.State -eq 'Stopped') { Out-Result @{ ok = $true; changed = $false }; return }
  $order = New-Object System.Collections.ArrayList
  $seen = @{}
  function Add-LoomDependentsFirst($service) {
    foreach ($dep in (Get-LoomDependents ([string]$service.Name))) {
      if ($dep.State -ne 'Stopped' -and -not $seen.ContainsKey([string]$dep.Name)) {
        $seen[[string]$dep.Name] = $true
        Add-LoomDependentsFirst $dep
        [void]$order.Add($dep)
      }
    }
  }
  Add-LoomDependentsFirst $svc
  if ($order.Count -gt 0 -and -not $force) {
    $names = ($order | ForEach-Object { $_.Name }) -join ', '
    Out-Result @{ ok = $false; kind = 'dependents_running'; ` +
    `message = ('cannot stop {0}: dependent services are running: {1} (use force to stop them too)' -f $name, $names) }
    return
  }
  [void]$order.Add($svc)
  foreach ($target in $order) {
    $rv = [int](Invoke-CimMethod -InputObject $target -MethodName StopService).ReturnValue
    if ($rv -ne 0 -and $rv -ne 5) { Out-Result @{ ok = $false; kind = 'win32'; code = $rv; service = [string]$target.Name }; return }
    if (-not (Wait-LoomState ([string]$target.Name) 'Stopped' $timeoutMs)) {
      Out-Result @{ ok = $false; kind = 'timeout'; ` +
    `message = ('timed out after {0} ms waiting for service {1} to stop' -f $timeoutMs, $target.Name) }
      return
    }
  }
  Out-Result @{ ok = $true; changed = $true }
`,
);

/** `-EncodedCommand` takes base64 of the UTF-16LE script. */
export function encodeScript(script: string): string {
  return Buffer.from(script, 'utf16le').toString('base64');
}
