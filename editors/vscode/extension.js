// The maester extension: the grammar and language configuration are declared in package.json; this
// file only starts `maester lsp` as the language server of .mst files (when `npm install` has
// fetched vscode-languageclient and `maester` is installed).
const vscode = require("vscode");

let client;

async function activate() {
  const config = vscode.workspace.getConfiguration("maester");
  if (!config.get("server.enabled", true)) {
    return;
  }
  let LanguageClient;
  try {
    ({ LanguageClient } = require("vscode-languageclient/node"));
  } catch (e) {
    vscode.window.showInformationMessage(
      "maester: highlighting only. Run `npm install` in the extension folder for live diagnostics (maester lsp).");
    return;
  }
  const server = {
    command: config.get("server.command", "maester"),
    args: config.get("server.args", ["lsp"]),
  };
  client = new LanguageClient(
    "maester",
    "maester",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "maester" }] },
  );
  try {
    await client.start();
  } catch (e) {
    vscode.window.showErrorMessage(
      `maester: could not start '${server.command} ${server.args.join(" ")}' (${e.message}). ` +
      "Install maester (pip install -e .) or set maester.server.command.");
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
