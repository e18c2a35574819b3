// Signing in through Discord's Embedded App SDK, as Discord's own examples do: wait for the
// client, ask it for an OAuth2 code (no prompt: the user launched the Activity), trade the code
// for a token on our server (which holds the client secret), then tell the SDK the token.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";

export async function signIn(clientId, api) {
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const { access_token: token } = await api.post("/api/token", { code });
  // Discord's client is told the token while the page goes on loading with it
  const authenticated = sdk.commands.authenticate({ access_token: token });
  return { sdk, token, authenticated };
}

/** Calls `onChange(participants)` with who is in the instance now and at every change. */
export async function followParticipants(sdk, onChange) {
  await sdk.subscribe(PARTICIPANTS_UPDATE, ({ participants }) => onChange(participants));
  const { participants } = await sdk.commands.getInstanceConnectedParticipants();
  onChange(participants);
}
