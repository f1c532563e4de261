"""
moto's server, answering as AWS does where the deploy test needs it and moto 5 does not.

Python imports a `sitecustomize` module from PYTHONPATH at start-up, so test/deploy/moto.ts
starts `moto_server` with this directory on PYTHONPATH, whatever installed moto (pip, pipx,
pyenv). Each change below wraps moto's own method and is limited to the case where moto
departs from AWS; the rest of moto runs as it is. If moto's internals move, the import fails
and the marker line below is never printed: moto.ts then stops the test with that reason.

1. Updating a stack. The CDK CLI deletes "cdk-deploy-change-set" before every deploy of a
   stack that exists, then waits until DescribeChangeSet says ChangeSetNotFound.
   - DeleteChangeSet of a change set that is not there: AWS succeeds (the API reference lists
     only InvalidChangeSetStatus as its error); moto fails with a 500 (UnboundLocalError),
     which the SDK retries for about 40 s and then gives up on: the "hang".
   - DescribeChangeSet of a change set that is not there: AWS answers ChangeSetNotFound (404);
     moto answers ValidationError "Stack with id … does not exist", which the CLI takes for a
     failure.
   - Executing an update whose parameter says UsePreviousValue (the CDK's BootstrapVersion, an
     AWS::SSM::Parameter::Value<String>): AWS keeps the previous value, the parameter's name;
     moto hands over the value it already resolved ("30") and then looks up an SSM parameter
     of that name, which fails with a 500. A name SSM does not know is taken here as the
     value moto resolved before.
2. Outputs. A stack created or updated through a change set (as the CDK CLI always does) gets
   its template's Outputs in AWS; moto builds a stack's outputs when the stack object is made,
   which for a change set is before it has a template, and never again. Here they are built
   after each change set runs; an output whose value names a resource moto skipped (the
   distribution, the HTTP API, the secret) or another stack's export (moto registers no
   exports of a change set's stack) is left out, as moto cannot know its value.
3. Point-in-time recovery. RestoreTableToPointInTime restores the table as it was at
   RestoreDateTime; moto copies the table as it is now. Here each table keeps a copy of its
   items after every write, and a restore takes the last copy made at or before the time asked
   for (or the latest with UseLatestRestorableTime).
4. Saved Logs Insights queries. moto's CloudFormation does not know AWS::Logs::QueryDefinition
   and skips it, but it does create the dashboard, whose body reads each query's id
   (Fn::GetAtt QueryDefinitionId), and fails the whole stack on that reference ("Fn::GetAtt
   references undefined resource"). AWS makes the query and answers its id, a UUID. Here the
   type is known: it answers an id of the same form and keeps nothing else, as moto's Logs has
   no saved queries to keep it in.
5. Alarms. moto's CloudFormation does not know AWS::CloudWatch::Alarm either and skips it, so
   the dashboard's alarm status widget, whose body reads each alarm's ARN (Fn::GetAtt Arn),
   fails the stack the same way. AWS answers the ARN from the alarm's name, and its name for a
   Ref; here the type is known and answers both, keeping nothing else (what moto cannot show of
   alarms is listed in deploy-guide.test.ts).
6. OIDC providers. moto's IAM makes and keeps them (CreateOpenIDConnectProvider and the rest),
   but its CloudFormation does not know AWS::IAM::OIDCProvider and skips it, so the GitHub
   deploy stack's role would trust a provider that does not exist. AWS makes the provider and
   answers its ARN for a Ref; here the type is known and goes to moto's own IAM, which keeps it
   (the guide's `aws iam` commands read it back) and deletes it with the stack.
7. Composite alarms. Skipped like the alarms (5.), and read by the dashboard's alarm list the
   same way: here the type is known and answers its ARN and name, keeping nothing else.
8. CloudWatch Logs deliveries (CloudFront's access log, standard logging v2). moto's Logs makes
   and keeps delivery sources, destinations and deliveries (PutDeliverySource and the rest), but
   its CloudFormation does not know AWS::Logs::DeliverySource, ::DeliveryDestination or
   ::Delivery, and the delivery reads the destination's ARN (Fn::GetAtt), which fails the stack.
   Here the types are known and go to moto's own Logs, which keeps them (the test reads them
   back with `aws logs describe-deliveries`) and deletes them with the stack.
9. CloudFront distributions. moto's CloudFormation does not know AWS::CloudFront::Distribution
   and skips it; the outside check's function reads the distribution's domain name for the
   address it checks (Fn::GetAtt DomainName) where the stage has no domain of its own, which
   fails the stack. Making the type known would not do: the distribution's own properties read
   the other CloudFront resources moto skips (its policies, functions, access control). Here only
   that attribute of a skipped distribution is answered, in AWS's form; nothing is made, and no
   request reaches a distribution here (deploy-guide.test.ts lists what moto cannot show).
"""

import copy
import hashlib
import sys
import time
import uuid
from collections import defaultdict

from moto.cloudformation.exceptions import CloudFormationError
from moto.cloudformation.models import CloudFormationBackend
from moto.cloudformation import parsing
from moto.cloudformation.parsing import OutputMap, ResourceMap
from moto.core.common_models import CloudFormationModel
from moto.dynamodb.models import DynamoDBBackend
from moto.iam.models import iam_backends
from moto.utilities.utils import get_partition
from moto.dynamodb.responses import DynamoHandler
from moto.ssm.models import ssm_backends


# 1. Updating a stack.


class ChangeSetNotFoundException(CloudFormationError):
    # moto serializes this shape as AWS does: code ChangeSetNotFound, status 404.
    code = "ChangeSetNotFoundException"

    def __init__(self, name):
        super().__init__(f"ChangeSet [{name}] does not exist")


def _change_set_exists(backend, name):
    return name in backend.change_sets or any(cs.change_set_name == name for cs in backend.change_sets.values())


_delete_change_set = CloudFormationBackend.delete_change_set


def delete_change_set(self, change_set_name, *args, **kwargs):
    if not _change_set_exists(self, change_set_name):
        return None
    return _delete_change_set(self, change_set_name, *args, **kwargs)


CloudFormationBackend.delete_change_set = delete_change_set

_describe_change_set = CloudFormationBackend.describe_change_set


def describe_change_set(self, change_set_name, *args, **kwargs):
    if not _change_set_exists(self, change_set_name):
        raise ChangeSetNotFoundException(change_set_name)
    return _describe_change_set(self, change_set_name, *args, **kwargs)


CloudFormationBackend.describe_change_set = describe_change_set

_parse_ssm_parameter = ResourceMap.parse_ssm_parameter


def parse_ssm_parameter(self, value, value_type):
    if ssm_backends[self._account_id][self._region_name].get_parameter(value) is None:
        return value
    return _parse_ssm_parameter(self, value, value_type)


ResourceMap.parse_ssm_parameter = parse_ssm_parameter


# 2. Outputs.

_execute_change_set = CloudFormationBackend.execute_change_set


def execute_change_set(self, change_set_name, *args, **kwargs):
    result = _execute_change_set(self, change_set_name, *args, **kwargs)
    for stack in self.stacks.values():
        if stack.template and stack.template_dict.get("Outputs") is None:
            stack._parse_template()
            stack.output_map = stack._create_output_map()
    return result


CloudFormationBackend.execute_change_set = execute_change_set

_output = OutputMap.__getitem__


def output(self, key):
    try:
        return _output(self, key)
    except CloudFormationError:
        return None


OutputMap.__getitem__ = output


# 3. Point-in-time recovery.


def _remember(backend, table_name):
    table = backend.get_table(table_name)
    history = table.__dict__.setdefault("_item_history", [])
    history.append((time.time(), copy.deepcopy(table.items)))


def _remembering(method):
    def wrapper(self, table_name, *args, **kwargs):
        result = method(self, table_name, *args, **kwargs)
        _remember(self, table_name)
        return result

    return wrapper


for _name in ("put_item", "update_item", "delete_item"):
    setattr(DynamoDBBackend, _name, _remembering(getattr(DynamoDBBackend, _name)))

_transact_write_items = DynamoDBBackend.transact_write_items


def transact_write_items(self, *args, **kwargs):
    result = _transact_write_items(self, *args, **kwargs)
    for name in list(self.tables):
        _remember(self, name)
    return result


DynamoDBBackend.transact_write_items = transact_write_items

_restore_response = DynamoHandler.restore_table_to_point_in_time


def restore_table_to_point_in_time(self):
    body = self.body
    result = _restore_response(self)
    source = self.dynamodb_backend.get_table(body.get("SourceTableName"))
    restored = self.dynamodb_backend.get_table(body.get("TargetTableName"))
    # moto's request parser has made the JSON number a datetime already.
    at = time.time() if body.get("UseLatestRestorableTime") else body["RestoreDateTime"].timestamp()
    history = source.__dict__.get("_item_history", [])
    copies = [items for when, items in history if when <= at]
    restored.items = copy.deepcopy(copies[-1]) if copies else defaultdict(dict)
    return result


DynamoHandler.restore_table_to_point_in_time = restore_table_to_point_in_time


# 4. Saved Logs Insights queries.


class QueryDefinition(CloudFormationModel):
    # moto's models name their service by their module, moto.<service>.models.
    __module__ = "moto.logs.models"

    def __init__(self, name):
        self.name = name
        self.query_definition_id = str(uuid.uuid4())

    @property
    def physical_resource_id(self):
        return self.query_definition_id

    @staticmethod
    def cloudformation_type():
        return "AWS::Logs::QueryDefinition"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "QueryDefinitionId"

    def get_cfn_attribute(self, attribute_name):
        return self.query_definition_id

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        return cls(cloudformation_json["Properties"]["Name"])

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        original_resource.name = cloudformation_json["Properties"]["Name"]
        return original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        return None


# 5. Alarms.


class Alarm(CloudFormationModel):
    __module__ = "moto.cloudwatch.models"

    def __init__(self, name, account_id, region_name):
        self.name = name
        self.arn = f"arn:aws:cloudwatch:{region_name}:{account_id}:alarm:{name}"

    @property
    def physical_resource_id(self):
        return self.name

    @staticmethod
    def cloudformation_type():
        return "AWS::CloudWatch::Alarm"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "Arn"

    def get_cfn_attribute(self, attribute_name):
        return self.arn

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        # AWS names an alarm without AlarmName after its logical id and a random suffix.
        name = cloudformation_json["Properties"].get("AlarmName") or f"{resource_name}-{uuid.uuid4().hex[:12].upper()}"
        return cls(name, account_id, region_name)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        name = cloudformation_json["Properties"].get("AlarmName")
        return cls(name, account_id, region_name) if name else original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        return None


# 6. OIDC providers.


class OIDCProvider(CloudFormationModel):
    __module__ = "moto.iam.models"

    def __init__(self, arn):
        self.arn = arn

    @property
    def physical_resource_id(self):
        return self.arn

    @staticmethod
    def cloudformation_type():
        return "AWS::IAM::OIDCProvider"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "Arn"

    def get_cfn_attribute(self, attribute_name):
        return self.arn

    @staticmethod
    def _backend(account_id, region_name):
        return iam_backends[account_id][get_partition(region_name)]

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        properties = cloudformation_json["Properties"]
        provider = cls._backend(account_id, region_name).create_open_id_connect_provider(
            url=properties["Url"],
            thumbprint_list=properties.get("ThumbprintList", []),
            client_id_list=properties.get("ClientIdList", []),
            tags=properties.get("Tags", []),
        )
        return cls(provider.arn)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        properties = cloudformation_json["Properties"]
        provider = cls._backend(account_id, region_name).get_open_id_connect_provider(original_resource.arn)
        provider.client_id_list = properties.get("ClientIdList", [])
        provider.thumbprint_list = properties.get("ThumbprintList", [])
        return original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        # resource_name is the physical id, the provider's ARN.
        cls._backend(account_id, region_name).delete_open_id_connect_provider(resource_name)

    def delete(self, account_id, region_name):
        self._backend(account_id, region_name).delete_open_id_connect_provider(self.arn)


# 7. Composite alarms.


class CompositeAlarm(CloudFormationModel):
    # moto's model list is CloudFormationModel's direct subclasses: the alarm's answers, by delegation.
    __module__ = "moto.cloudwatch.models"

    def __init__(self, alarm):
        self.alarm = alarm

    @property
    def physical_resource_id(self):
        return self.alarm.physical_resource_id

    @staticmethod
    def cloudformation_type():
        return "AWS::CloudWatch::CompositeAlarm"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "Arn"

    def get_cfn_attribute(self, attribute_name):
        return self.alarm.arn

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        return cls(Alarm.create_from_cloudformation_json(resource_name, cloudformation_json, account_id, region_name))

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        return cls(Alarm.update_from_cloudformation_json(original_resource.alarm, new_resource_name, cloudformation_json, account_id, region_name))

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        return None


# 8. CloudWatch Logs deliveries.

from moto.logs.models import logs_backends  # noqa: E402


def _logs(account_id, region_name):
    return logs_backends[account_id][region_name]


class DeliverySource(CloudFormationModel):
    __module__ = "moto.logs.models"

    def __init__(self, name, arn):
        self.name = name
        self.arn = arn

    @property
    def physical_resource_id(self):
        return self.name

    @staticmethod
    def cloudformation_type():
        return "AWS::Logs::DeliverySource"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "Arn"

    def get_cfn_attribute(self, attribute_name):
        return self.arn

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        properties = cloudformation_json["Properties"]
        made = _logs(account_id, region_name).put_delivery_source(
            name=properties["Name"], resource_arn=properties["ResourceArn"], log_type=properties["LogType"], tags=None
        )
        return cls(made.name, made.arn)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        # A put of the same name is an update in moto's Logs, as in AWS.
        return cls.create_from_cloudformation_json(new_resource_name, cloudformation_json, account_id, region_name)

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        _logs(account_id, region_name).delivery_sources.pop(resource_name, None)


class DeliveryDestination(CloudFormationModel):
    __module__ = "moto.logs.models"

    def __init__(self, name, arn):
        self.name = name
        self.arn = arn

    @property
    def physical_resource_id(self):
        return self.name

    @staticmethod
    def cloudformation_type():
        return "AWS::Logs::DeliveryDestination"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr == "Arn"

    def get_cfn_attribute(self, attribute_name):
        return self.arn

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        properties = cloudformation_json["Properties"]
        made = _logs(account_id, region_name).put_delivery_destination(
            name=properties["Name"],
            output_format=properties.get("OutputFormat"),
            delivery_destination_configuration={"destinationResourceArn": properties["DestinationResourceArn"]},
            tags=None,
        )
        return cls(made.name, made.arn)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        return cls.create_from_cloudformation_json(new_resource_name, cloudformation_json, account_id, region_name)

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        _logs(account_id, region_name).delete_delivery_destination(resource_name)


class Delivery(CloudFormationModel):
    __module__ = "moto.logs.models"

    def __init__(self, delivery_id, arn):
        self.delivery_id = delivery_id
        self.arn = arn

    @property
    def physical_resource_id(self):
        return self.delivery_id

    @staticmethod
    def cloudformation_type():
        return "AWS::Logs::Delivery"

    @classmethod
    def has_cfn_attr(cls, attr):
        return attr in ("Arn", "DeliveryId")

    def get_cfn_attribute(self, attribute_name):
        return self.arn if attribute_name == "Arn" else self.delivery_id

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        properties = cloudformation_json["Properties"]
        made = _logs(account_id, region_name).create_delivery(
            delivery_source_name=properties["DeliverySourceName"],
            delivery_destination_arn=properties["DeliveryDestinationArn"],
            record_fields=properties.get("RecordFields"),
            field_delimiter=properties.get("FieldDelimiter"),
            s3_delivery_configuration=None,
            tags=None,
        )
        return cls(made.id, made.arn)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        # The same source and destination: the delivery stands; its fields are set anew.
        delivery = _logs(account_id, region_name).deliveries.get(original_resource.delivery_id)
        if delivery is not None:
            delivery.record_fields = cloudformation_json["Properties"].get("RecordFields", delivery.record_fields)
        return original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        _logs(account_id, region_name).delete_delivery(resource_name)


# 9. CloudFront distributions.

_clean_json = parsing.clean_json


def clean_json(resource_json, resources_map):
    if isinstance(resource_json, dict) and "Fn::GetAtt" in resource_json:
        name, attribute = resource_json["Fn::GetAtt"][:2]
        declared = resources_map._resource_json_map.get(name, {})
        if declared.get("Type") == "AWS::CloudFront::Distribution" and attribute == "DomainName" and resources_map.get(name) is None:
            # AWS's form, d + 13 letters and digits, the same for the same distribution of a stack.
            return "d" + hashlib.sha256(f"{resources_map._region_name}/{name}".encode()).hexdigest()[:13] + ".cloudfront.net"
    return _clean_json(resource_json, resources_map)


# clean_json calls itself by its module's name, so every nested reference comes here too.
parsing.clean_json = clean_json


# The model map is built once, from the subclasses known then.
for _cached in (parsing.get_model_list, parsing.get_model_map, parsing.get_name_type_map):
    _cached.cache_clear()

print("moto answering as AWS: test/deploy/moto-as-aws/sitecustomize.py", file=sys.stderr, flush=True)
