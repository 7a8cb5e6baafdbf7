// Drives the File service double with Microsoft's JavaScript SDK, a client nobody here wrote, so that the double
// does not merely agree with our own reading of the protocol. Usage: node crosscheck.mjs ENDPOINT ACCOUNT BASE64KEY
// Prints one line per check and "ALL OK" at the end; exits non-zero on the first failure.
import {
  newPipeline, ShareServiceClient, StorageSharedKeyCredential, generateAccountSASQueryParameters, AccountSASPermissions,
  AccountSASResourceTypes, AccountSASServices,
} from "@azure/storage-file-share";

const [endpoint, account, key] = process.argv.slice(2);
const credential = new StorageSharedKeyCredential(account, key);
// Like the Java SDK, the JavaScript SDK builds some URLs (a rename's destination) from the endpoint's host alone,
// dropping the path of a path-style endpoint: put the account segment back before the request is signed.
const pipeline = newPipeline(credential);
pipeline.factories.splice(pipeline.factories.length - 1, 0, { create: (next) => ({ sendRequest: (request) => {
  const url = new URL(request.url);
  if (!url.pathname.startsWith("/" + account + "/") && url.pathname !== "/" + account) {
    url.pathname = "/" + account + url.pathname;
    request.url = url.toString();
  }
  return next.sendRequest(request);
} }) });
const service = new ShareServiceClient(endpoint, pipeline);
const check = (name, ok) => { if (!ok) { console.log("FAIL " + name); process.exit(1); } console.log("ok " + name); };

const share = service.getShareClient("jscheck");
await share.create();
check("create share", true);
const dir = share.getDirectoryClient("dir one");
await dir.create();
const file = dir.getFileClient("hello wörld.txt");
const body = Buffer.from("hello from the JavaScript SDK");
await file.create(body.length);
await file.uploadRange(body, 0, body.length);
check("create file and put range", true);
const lastWrite = new Date("2024-02-03T04:05:06.123Z");
await file.setProperties({ lastWriteTime: lastWrite });
const props = await file.getProperties();
check("properties: size and last-write time", props.contentLength === body.length && props.fileLastWriteOn.getTime() === lastWrite.getTime());
const part = await file.download(6, 4);
check("ranged download", (await streamText(part.readableStreamBody)) === "from");

const names = [];
for await (const item of dir.listFilesAndDirectories({ includeTimestamps: true, includeEtag: true, includeAttributes: true,
    includePermissionKey: true, includeExtendedInfo: true })) {
  names.push(item.name);
  check("listing carries timestamps, etag, attributes, permission key",
    item.properties.lastWriteTime.getTime() === lastWrite.getTime() && item.properties.etag && item.attributes && item.permissionKey);
}
check("listing names", names.length === 1 && names[0] === "hello wörld.txt");

const renamed = (await file.rename("dir one/renamed.txt")).destinationFileClient;
check("rename", (await renamed.getProperties()).contentLength === body.length);
const copy = dir.getFileClient("copy.txt");
// the renamed client's URL lost the account segment (see above): name the source as the service knows it
const poller = await copy.startCopyFromURL(endpoint + "/jscheck/dir%20one/renamed.txt");
check("copy file", poller.copyStatus === "success" && (await copy.getProperties()).contentLength === body.length);

const sas = generateAccountSASQueryParameters({ expiresOn: new Date(Date.now() + 3600_000), permissions: AccountSASPermissions.parse("rl"),
  resourceTypes: AccountSASResourceTypes.parse("sco").toString(), services: AccountSASServices.parse("f").toString() }, credential).toString();
const viaSas = new ShareServiceClient(endpoint + "?" + sas).getShareClient("jscheck").getDirectoryClient("dir one").getFileClient("copy.txt");
check("read through an account SAS", (await viaSas.getProperties()).contentLength === body.length);
try {
  await viaSas.delete();
  check("a SAS without 'd' cannot delete", false);
} catch (e) {
  check("a SAS without 'd' cannot delete: " + e.details?.errorCode, e.statusCode === 403 && e.details?.errorCode === "AuthorizationPermissionMismatch");
}
const expired = generateAccountSASQueryParameters({ expiresOn: new Date(Date.now() - 60_000), permissions: AccountSASPermissions.parse("rl"),
  resourceTypes: "sco", services: "f" }, credential).toString();
try {
  await new ShareServiceClient(endpoint + "?" + expired).getShareClient("jscheck").getDirectoryClient("dir one").getFileClient("copy.txt").getProperties();
  check("an expired SAS is refused", false);
} catch (e) {
  check("an expired SAS is refused", e.statusCode === 403);
}
try {
  await share.getDirectoryClient("missing").getFileClient("x").create(1);
  check("a missing parent is refused", false);
} catch (e) {
  check("a missing parent is refused: " + e.details?.errorCode, e.statusCode === 404 && e.details?.errorCode === "ParentNotFound");
}
await copy.delete();
await renamed.delete();
await dir.delete();
check("delete", !(await dir.exists()));
console.log("ALL OK");

async function streamText(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}
