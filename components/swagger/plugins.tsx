import type { ComponentType } from "react";
import { TryItAdvice } from "./try-it-advice";

type AnyProps = Record<string, unknown>;
type Wrapper = (Original: ComponentType<AnyProps>) => ComponentType<AnyProps>;

/** Shows advice right below the live response of a failed try-it call. */
export function problemAdvicePlugin() {
  const liveResponse: Wrapper = (Original) =>
    function LiveResponseWithAdvice(props) {
      return (
        <>
          <Original {...props} />
          <TryItAdvice response={props.response as Parameters<typeof TryItAdvice>[0]["response"]} />
        </>
      );
    };
  return { wrapComponents: { liveResponse } };
}

/**
 * The spec has exactly one server, so a drop-down would offer no choice: show
 * the URL as text. Swagger UI's own control stays mounted (hidden), because it
 * is what selects that server for try-it calls.
 */
export function singleServerPlugin(serverUrl: string) {
  const ServersContainer: Wrapper = (Original) =>
    function SingleServer(props) {
      return (
        <div className="gatehouse-server">
          <p>
            Server: <code data-testid="swagger-server">{serverUrl}</code>
          </p>
          <div hidden>
            <Original {...props} />
          </div>
        </div>
      );
    };
  return { wrapComponents: { ServersContainer } };
}

/** The page above already shows the API's name, version and description: Swagger UI's own title block would repeat them. */
export function withoutInfoPlugin() {
  const InfoContainer: Wrapper = () =>
    function NoInfo() {
      return null;
    };
  return { wrapComponents: { InfoContainer } };
}
