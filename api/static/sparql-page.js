/* The SPARQL query page: YASGUI (vendored) pointed at this server's endpoint, one tab per example query of the
 * README (sparql-examples.json).  Nothing is fetched from another host: no prefix.cc, no LOV autocompletion, no
 * CORS proxy, no persisted tabs from an earlier visit.  window.yasgui is the YASGUI instance. */
"use strict";

(async () => {
  const endpoint = "/sparql"; // relative: the page works under any host and port
  document.getElementById("endpoint").textContent = endpoint;
  const status = document.getElementById("status");
  let examples = [];
  try {
    const response = await fetch("/static/sparql-examples.json");
    examples = (await response.json()).examples;
  } catch (error) {
    status.textContent = `The example queries could not be loaded: ${error.message}`;
    status.hidden = false;
  }
  const yasgui = new Yasgui(document.getElementById("yasgui"), {
    requestConfig: { endpoint, method: "POST" },
    endpointCatalogueOptions: { getData: () => [{ endpoint }] },
    copyEndpointOnNewTab: true,
    persistenceId: null, // every visit starts from the examples
    populateFromUrl: false,
    autoAddOnInit: false,
    autofocus: false,
    corsProxy: undefined,
    // variables and the bundled prefix list only: the class and property completers ask an online service (LOV)
    yasqe: { autocompleters: ["variables", "prefixes"], prefixCcApi: null, editorHeight: "180px" },
    yasr: { pluginOrder: ["table", "response"], defaultPlugin: "table" },
  });
  examples.forEach((example, i) => {
    yasgui.addTab(i === 0, {
      ...Yasgui.Tab.getDefaults(),
      name: example.title,
      yasqe: { value: example.query },
      requestConfig: { ...Yasgui.Tab.getDefaults().requestConfig, endpoint },
    });
  });
  if (!examples.length) yasgui.addTab(true, { ...Yasgui.Tab.getDefaults(), name: "Query" });
  window.yasgui = yasgui;
  document.body.dataset.rendered = "sparql";
})();
